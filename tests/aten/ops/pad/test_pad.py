"""Reflection and replication padding on the vulkan device
(csrc/aten/ops/pad/pad.cpp), in strict mode against the CPU: values and
gradients over one to three padded dimensions, batched and not, negative
(cropping) padding, layouts, dtypes, and the CPU's errors."""

import pytest
import torch
import torch.nn.functional as F

from tests.opinfo import check_op, parametrize

# input shape, padding (last dimension first)
CASES = [
    ((2, 3, 7), (2, 3)),
    ((3, 7), (0, 4)),                       # unbatched 1-D
    ((2, 3, 5, 6), (1, 2, 3, 4)),
    ((3, 5, 6), (2, 0, 1, 4)),              # unbatched 2-D
    ((1, 2, 4, 5, 6), (1, 2, 3, 1, 2, 3)),
    ((2, 4, 5, 6), (1, 2, 3, 1, 2, 3)),     # unbatched 3-D
    ((2, 3, 6), (-1, 2)),                   # cropping on one side
    ((2, 3, 5, 6), (-2, 1, 3, -1)),
    ((2, 3, 5, 6), (4, 5, 0, 4)),           # reflection's largest padding
]


def compare(x, padding, mode, channels_last=False):
    xv = x.detach().to("vulkan")
    if channels_last:
        xv = xv.contiguous(memory_format=torch.channels_last)
    floating = x.dtype.is_floating_point
    x, xv = x.detach().clone().requires_grad_(floating), xv.requires_grad_(floating)
    out, outv = F.pad(x, padding, mode=mode), F.pad(xv, padding, mode=mode)
    assert outv.device.type == "vulkan"
    torch.testing.assert_close(outv.cpu(), out)
    if floating:
        grad = torch.randn(out.shape).to(x.dtype)
        out.backward(grad)
        outv.backward(grad.to("vulkan"))
        torch.testing.assert_close(xv.grad.cpu(), x.grad, rtol=1e-2 if x.dtype != torch.float32 else 1e-5,
                                   atol=1e-2 if x.dtype != torch.float32 else 1e-5)


@pytest.mark.parametrize("mode", ["reflect", "replicate"])
@pytest.mark.parametrize("shape,padding", CASES, ids=str)
def test_matches_cpu(mode, shape, padding, no_fallback):
    torch.manual_seed(0)
    compare(torch.randn(shape), padding, mode)


@pytest.mark.parametrize("mode", ["reflect", "replicate"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.int32, torch.uint8], ids=str)
def test_dtypes(mode, dtype, no_fallback):
    torch.manual_seed(0)
    x = (torch.randn(2, 3, 5, 6) * 50).to(dtype) if dtype.is_floating_point else torch.randint(0, 100, (2, 3, 5, 6),
                                                                                               dtype=dtype)
    compare(x, (2, 1, 3, 2), mode)


@pytest.mark.parametrize("mode", ["reflect", "replicate"])
def test_channels_last(mode, no_fallback):
    torch.manual_seed(0)
    compare(torch.randn(2, 3, 5, 6), (1, 2, 2, 1), mode, channels_last=True)


def test_errors(no_fallback):
    x = torch.ones(1, 2, 3, 4, device="vulkan")
    with pytest.raises(RuntimeError, match="Padding size should be less than the corresponding input dimension"):
        F.pad(x, (4, 0, 0, 0), mode="reflect")
    with pytest.raises(RuntimeError, match="Padding size should be less than the corresponding input dimension"):
        F.pad(x[0], (1, 1, 3, 0), mode="reflect")
    assert F.pad(x, (-2, -2, 0, 0), mode="replicate").shape == (1, 2, 3, 0)
    with pytest.raises(RuntimeError, match="negative dimension"):
        F.pad(x, (-3, -2, 0, 0), mode="replicate")
    with pytest.raises(NotImplementedError, match="not implemented for 'Bool'"):
        F.pad(x.bool(), (1, 1, 1, 1), mode="replicate")


@parametrize([("nn.functional.pad", mode) for mode in ["reflect", "replicate", "replicate_negative"]],
             variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
