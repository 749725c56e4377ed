import pytest
import torch
import torch.nn.functional as F

from tests.helpers import kernels_of
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


# The sum and the mean (nll_loss.cpp): a batch in one workgroup, the whole
# loss one kernel; past kTotalRounds samples an invocation, per-sample
# losses and native sums. Weights, ignored samples, float16 summed in
# float32, and every sample ignored (the mean is 0 / 0).
@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("samples", [128, 3000, 40000])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_sum_and_mean(samples, reduction, dtype, no_fallback):
    x = torch.randn(samples, 7).log_softmax(1).to(dtype)
    target = torch.randint(0, 7, (samples,))
    target[::5] = -100
    weight = torch.rand(7).to(dtype)
    dx, dt, dw = x.to("vulkan"), target.to("vulkan"), weight.to("vulkan")
    first = kernels_of(lambda: F.nll_loss(dx, dt, weight=dw, reduction=reduction))[0]
    assert first == f"nll.{'total' if samples <= 3000 else 'samples'}.{'f32' if dtype == torch.float32 else 'f16'}"
    got = F.nll_loss(dx, dt, weight=dw, reduction=reduction).cpu()
    expected = F.nll_loss(x.double(), target, weight=weight.double(), reduction=reduction)
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == torch.float32 else dict(rtol=2e-3, atol=1e-3)
    torch.testing.assert_close(got.double(), expected, **tol)
    ignored = F.nll_loss(dx[:4], torch.full((4,), -100, device="vulkan"), reduction=reduction).cpu()
    assert ignored.isnan().item() if reduction == "mean" else ignored.item() == 0
