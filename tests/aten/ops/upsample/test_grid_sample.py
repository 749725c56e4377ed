"""F.grid_sample on the vulkan device (csrc/aten/ops/upsample/grid_sample.cpp),
in strict mode against the CPU: values and the gradients of input and grid
for every mode, padding mode and align_corners, 2-D and 3-D, with grid
points past the edges."""

import itertools

import pytest
import torch
import torch.nn.functional as F

from tests.helpers import assert_forward_backward_match
from tests.opinfo import check_op, parametrize

CASES_2D = list(itertools.product(["bilinear", "nearest", "bicubic"], ["zeros", "border", "reflection"], [False, True]))
CASES_3D = list(itertools.product(["bilinear", "nearest"], ["zeros", "border", "reflection"], [False, True]))


def grid(*shape):
    # Points inside and up to 30% past every edge.
    return torch.rand(*shape) * 2.6 - 1.3


@pytest.mark.parametrize("mode,padding,align", CASES_2D, ids=str)
def test_2d_matches_cpu(mode, padding, align, no_fallback):
    torch.manual_seed(0)
    assert_forward_backward_match(lambda x, g: F.grid_sample(x, g, mode, padding, align), torch.randn(2, 3, 5, 7),
                                  grid(2, 4, 6, 2), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("mode,padding,align", CASES_3D, ids=str)
def test_3d_matches_cpu(mode, padding, align, no_fallback):
    torch.manual_seed(0)
    assert_forward_backward_match(lambda x, g: F.grid_sample(x, g, mode, padding, align), torch.randn(2, 3, 4, 5, 6),
                                  grid(2, 3, 4, 5, 3), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float64], ids=str)
def test_dtypes(dtype, no_fallback):
    if dtype == torch.float64 and not torch.vulkan.get_device_properties().float64:
        pytest.skip("no float64 on this device")
    torch.manual_seed(0)
    tol = {torch.float16: 2e-2, torch.bfloat16: 1e-1}.get(dtype, 1e-7)
    assert_forward_backward_match(lambda x, g: F.grid_sample(x, g, "bilinear", "reflection", False),
                                  torch.randn(1, 2, 6, 6).to(dtype), grid(1, 5, 5, 2).to(dtype), rtol=tol, atol=tol)


def test_input_gradient_only_and_strided_operands(no_fallback):
    torch.manual_seed(0)
    x, g = torch.randn(2, 7, 5, 3).permute(0, 3, 1, 2), grid(2, 2, 4, 6).permute(0, 2, 3, 1)
    xv = x.to("vulkan").requires_grad_()
    x.requires_grad_()
    out, outv = F.grid_sample(x, g, align_corners=True), F.grid_sample(xv, g.to("vulkan"), align_corners=True)
    torch.testing.assert_close(outv.cpu(), out)
    grad = torch.randn(out.shape)
    out.backward(grad)
    outv.backward(grad.to("vulkan"))
    torch.testing.assert_close(xv.grad.cpu(), x.grad)


def test_bad_input(no_fallback):
    x = torch.ones(1, 1, 4, 4, 4, device="vulkan")
    with pytest.raises(RuntimeError, match="bicubic interpolation only supports 4D input"):
        F.grid_sample(x, torch.zeros(1, 2, 2, 2, 3, device="vulkan"), mode="bicubic", align_corners=False)
    with pytest.raises(RuntimeError, match="expected scalar type Float for the grid"):
        F.grid_sample(x, torch.zeros(1, 2, 2, 2, 3, device="vulkan", dtype=torch.float64), align_corners=False)


@parametrize(["nn.functional.grid_sample", "grid_sampler_2d"])
def test_opinfo(op, dtype, variant, no_fallback):
    # The CPU's 2-D kernel unnormalizes as (g + 1) * (size / 2) - 0.5, this
    # one as CUDA and the CPU's 3-D kernel, ((g + 1) * size - 1) / 2: on the
    # reference samples' 456-wide images of values up to 255 the source
    # positions differ by an ulp (1.5e-5 pixels), the results by up to 4e-3
    # where neighbours differ by 255. The CPU computes 16-bit grids in 16 bits
    # (NaNs on those samples), this device in float32.
    check_op(op, dtype, variant, upcast_16_bit=True,
             tolerances={torch.float32: (1e-4, 5e-3), torch.float16: (1e-2, 1e-2), torch.bfloat16: (5e-2, 5e-2)})
