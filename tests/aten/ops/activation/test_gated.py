"""PReLU, RReLU and GLU on the vulkan device
(csrc/aten/ops/activation/gated.cpp), in strict mode against the CPU: values
and gradients, GLU's forward-mode tangents, RReLU's random slopes in
training, and OpInfo samples."""

import pytest
import torch
import torch.nn.functional as F

from tests.helpers import assert_forward_backward_match
from tests.opinfo import check_op, parametrize


@pytest.mark.parametrize("weight_shape", [(1,), (3,)], ids=["shared", "per_channel"])
def test_prelu(weight_shape, no_fallback):
    torch.manual_seed(0)
    x = torch.randn(2, 3, 4, 5)
    x[0, 0, 0, 0] = 0.0  # the boundary takes the slope, as on the CPU
    assert_forward_backward_match(F.prelu, x, torch.rand(weight_shape))


@pytest.mark.parametrize("dim", [-1, 0, 1])
def test_glu(dim, no_fallback):
    torch.manual_seed(0)
    assert_forward_backward_match(lambda t: F.glu(t, dim), torch.randn(4, 6, 8))


@pytest.mark.parametrize("dim", [-1, 0])
def test_glu_tangents(dim, no_fallback):
    torch.manual_seed(0)
    x, dx = torch.randn(4, 6, 8), torch.randn(4, 6, 8)
    glu = F.glu(x, dim)
    grad_glu, dgrad_glu = torch.randn(glu.shape), torch.randn(glu.shape)
    grad_x = torch.ops.aten.glu_backward(grad_glu, x, dim)

    def both(fn, *args):
        on_device = [a.to("vulkan") if isinstance(a, torch.Tensor) else a for a in args]
        torch.testing.assert_close(fn(*on_device).cpu(), fn(*args))

    both(torch.ops.aten.glu_jvp, glu, x, dx, dim)
    both(torch.ops.aten.glu_backward_jvp, grad_x, grad_glu, x, dgrad_glu, dx, dim)
    # Forward-mode AD through glu and through its backward (forward over
    # reverse), with a tangent for the output gradient and without one
    # (autograd then makes a zero tangent with _efficientzerotensor).
    both(lambda x, dx: torch.func.jvp(lambda t: F.glu(t, dim), (x,), (dx,))[1], x, dx)

    def backward(t, g):
        return torch.func.vjp(lambda u: F.glu(u, dim), t)[1](g)[0]

    both(lambda x, dx, g, dg: torch.func.jvp(backward, (x, g), (dx, dg))[1], x, dx, grad_glu, dgrad_glu)
    both(lambda x, dx, g: torch.func.jvp(lambda t: backward(t, g), (x,), (dx,))[1], x, dx, grad_glu)


def test_glu_odd_dimension_refused(no_fallback):
    with pytest.raises(RuntimeError, match="Halving dimension must be even"):
        F.glu(torch.ones(3, 5, device="vulkan"), -1)


@parametrize(["nn.functional.prelu", "nn.functional.glu"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant, tolerances={torch.float16: (1e-2, 1e-2), torch.bfloat16: (5e-2, 5e-2)})


def test_rrelu_eval_matches_cpu(no_fallback):
    torch.manual_seed(0)
    assert_forward_backward_match(lambda t: F.rrelu(t, 0.1, 0.3, training=False), torch.randn(4, 5))


def test_rrelu_training_draws_slopes_in_range(no_fallback):
    # Random slopes: each negative input scaled by one in [lower, upper], the
    # gradient the same slope, positive inputs untouched; seeded runs repeat.
    torch.manual_seed(0)
    x = torch.randn(4096)
    xv = x.to("vulkan").requires_grad_()
    torch.vulkan.manual_seed(1)
    out = F.rrelu(xv, 0.1, 0.3, training=True)
    out.sum().backward()
    slope = out.detach().cpu() / x
    assert torch.equal(slope[x > 0], torch.ones(int((x > 0).sum())))
    assert slope[x <= 0].min() >= 0.1 and slope[x <= 0].max() <= 0.3
    assert slope[x <= 0].std() > 0.03  # drawn, not the mean slope
    torch.testing.assert_close(xv.grad.cpu(), slope)
    torch.vulkan.manual_seed(1)
    torch.testing.assert_close(F.rrelu(x.to("vulkan"), 0.1, 0.3, training=True).cpu(), out.detach().cpu())
