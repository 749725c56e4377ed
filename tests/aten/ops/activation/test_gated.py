"""PReLU and GLU on the vulkan device (csrc/aten/ops/activation/gated.cpp), in
strict mode against the CPU: values and gradients, and OpInfo samples."""

import pytest
import torch
import torch.nn.functional as F

from tests.opinfo import check_op, parametrize


def compare(fn, *tensors):
    """fn on CPU leaves and on vulkan leaves: values and every gradient."""
    cpu = [t.clone().requires_grad_() for t in tensors]
    vk = [t.to("vulkan").requires_grad_() for t in tensors]
    out, outv = fn(*cpu), fn(*vk)
    torch.testing.assert_close(outv.cpu(), out)
    grad = torch.randn(out.shape)
    out.backward(grad)
    outv.backward(grad.to("vulkan"))
    for c, v in zip(cpu, vk):
        torch.testing.assert_close(v.grad.cpu(), c.grad)


@pytest.mark.parametrize("weight_shape", [(1,), (3,)], ids=["shared", "per_channel"])
def test_prelu(weight_shape, no_fallback):
    torch.manual_seed(0)
    x = torch.randn(2, 3, 4, 5)
    x[0, 0, 0, 0] = 0.0  # the boundary takes the slope, as on the CPU
    compare(F.prelu, x, torch.rand(weight_shape))


@pytest.mark.parametrize("dim", [-1, 0, 1])
def test_glu(dim, no_fallback):
    torch.manual_seed(0)
    compare(lambda t: F.glu(t, dim), torch.randn(4, 6, 8))


def test_glu_odd_dimension_refused(no_fallback):
    with pytest.raises(RuntimeError, match="Halving dimension must be even"):
        F.glu(torch.ones(3, 5, device="vulkan"), -1)


@parametrize(["nn.functional.prelu", "nn.functional.glu"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant, tolerances={torch.float16: (1e-2, 1e-2), torch.bfloat16: (5e-2, 5e-2)})
