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


def test_backward_into_a_strided_grad_input(no_fallback):
    # nll_loss_backward's out= keeps a given layout: a transposed grad_input
    # must receive the values, not the dense [N, C] bytes.
    x, target = torch.randn(5, 3).log_softmax(1), torch.tensor([0, 2, 1, 1, 0])
    grad, total = torch.tensor(1.0), torch.tensor(5.0)
    expected = torch.ops.aten.nll_loss_backward(grad, x, target, None, 1, -100, total)
    out = torch.empty(3, 5, device="vulkan").t()
    torch.ops.aten.nll_loss_backward.grad_input(grad.to("vulkan"), x.to("vulkan"), target.to("vulkan"), None, 1,
                                                -100, total.to("vulkan"), grad_input=out)
    torch.testing.assert_close(out.cpu(), expected)
