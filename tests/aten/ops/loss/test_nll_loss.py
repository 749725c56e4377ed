import pytest
import torch

from tests.opinfo import check_op, parametrize

OPS = ["nn.functional.nll_loss", "nn.functional.cross_entropy"]


@parametrize(OPS, variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_backward_matches_cpu(reduction, weighted, no_fallback):
    x = torch.randn(8, 5)
    target = torch.tensor([0, 4, 2, 1, 3, 3, -100, 2])
    weight = torch.rand(5) if weighted else None
    xv = x.to("vulkan").requires_grad_()
    xc = x.clone().requires_grad_()
    lv = torch.nn.functional.cross_entropy(xv, target.to("vulkan"), weight=None if weight is None else weight.to("vulkan"),
                                           reduction=reduction)
    lc = torch.nn.functional.cross_entropy(xc, target, weight=weight, reduction=reduction)
    torch.testing.assert_close(lv.cpu(), lc)
    g = torch.rand_like(lc)
    (gv,) = torch.autograd.grad(lv, xv, g.to("vulkan"))
    (gc,) = torch.autograd.grad(lc, xc, g)
    torch.testing.assert_close(gv.cpu(), gc)
