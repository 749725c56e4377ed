"""Average pooling on the vulkan device (csrc/aten/ops/pool/avg_pool.cpp), in
strict mode against the CPU: avg_pool1d/2d/3d values and gradients over
strides, padding, ceil_mode, count_include_pad, divisor_override, layouts and
dtypes, and adaptive_avg_pool1d/2d/3d over output sizes that do and do not
divide the input."""

import pytest
import torch
import torch.nn.functional as F

from tests.aten.ops.pool.leaves import leaf_pair
from tests.opinfo import check_op, parametrize

# input shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override
CASES = [
    ((2, 3, 8, 8), 2, None, 0, False, True, None),
    ((2, 3, 9, 7), 3, 2, 1, True, True, None),
    ((2, 3, 9, 7), 3, 2, 1, True, False, None),
    ((1, 2, 10, 10), 3, 2, 1, False, True, 5),
    ((3, 9, 9), 2, 1, 0, False, True, None),  # unbatched
    ((2, 3, 8, 8), (3, 2), (2, 1), (1, 0), True, False, None),
]


def tolerance(dtype):
    return {torch.float16: (1e-2, 1e-2), torch.bfloat16: (5e-2, 5e-2)}.get(dtype, (1e-5, 1e-5))


def compare(x, args, channels_last=False, pool=F.avg_pool2d):
    x, xv = leaf_pair(x, channels_last)
    out, outv = pool(x, *args), pool(xv, *args)
    assert outv.device.type == "vulkan"
    rtol, atol = tolerance(x.dtype)
    torch.testing.assert_close(outv.cpu(), out, rtol=rtol, atol=atol)
    if x.dtype.is_floating_point:
        grad = torch.randn(out.shape).to(x.dtype)
        out.backward(grad)
        outv.backward(grad.to("vulkan"))
        torch.testing.assert_close(xv.grad.cpu(), x.grad, rtol=rtol, atol=atol)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_matches_cpu(case, no_fallback):
    shape, *args = case
    torch.manual_seed(0)
    compare(torch.randn(shape), args)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float64, torch.int64], ids=str)
def test_dtypes(dtype, no_fallback):
    if dtype == torch.float64 and not torch.vulkan.get_device_properties().float64:
        pytest.skip("no float64 on this device")
    torch.manual_seed(0)
    # Integers sum in int64 and divide with truncation, negative sums too.
    compare((torch.randn(2, 3, 7, 7) * 50).to(dtype), (3, 2, 1, True, False, None))


def test_channels_last_and_other_dtypes_refused(no_fallback):
    torch.manual_seed(0)
    compare(torch.randn(2, 4, 9, 9), (3, 2, 1, False, True, None), channels_last=True)
    with pytest.raises(NotImplementedError, match="not implemented for 'Int'"):
        F.avg_pool2d(torch.ones(1, 1, 4, 4, dtype=torch.int32, device="vulkan"), 2)


@pytest.mark.parametrize("shape,output_size", [((2, 3, 7, 7), (3, 3)), ((2, 3, 10, 9), (4, 5)), ((3, 5, 5), (7, 2)),
                                               ((1, 2, 6, 6), (6, 6)), ((2, 3, 9, 4), (2, 1))], ids=str)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=str)
def test_adaptive_matches_cpu(shape, output_size, dtype, no_fallback):
    compare_adaptive(torch.randn(shape).to(dtype), output_size)


def compare_adaptive(x, output_size):
    torch.manual_seed(0)
    dtype = x.dtype
    x = x.requires_grad_()
    xv = x.detach().to("vulkan").requires_grad_()
    pool = F.adaptive_avg_pool2d if len(output_size) == 2 else F.adaptive_avg_pool3d
    out, outv = pool(x, output_size), pool(xv, output_size)
    rtol, atol = tolerance(dtype)
    torch.testing.assert_close(outv.cpu(), out, rtol=rtol, atol=atol)
    grad = torch.randn(out.shape).to(dtype)
    out.backward(grad)
    outv.backward(grad.to("vulkan"))
    torch.testing.assert_close(xv.grad.cpu(), x.grad, rtol=rtol, atol=atol)


def test_adaptive_bad_input(no_fallback):
    with pytest.raises(RuntimeError, match="non-zero size for non-batch dimensions"):
        F.adaptive_avg_pool2d(torch.ones(1, 0, 4, 4, device="vulkan"), 2)
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        F.adaptive_avg_pool2d(torch.ones(1, 1, 4, 4, dtype=torch.int64, device="vulkan"), 2)


@parametrize(["nn.functional.avg_pool1d", "nn.functional.avg_pool2d", "nn.functional.adaptive_avg_pool1d",
              "nn.functional.adaptive_avg_pool2d"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant, tolerances={torch.float16: (1e-2, 1e-2), torch.bfloat16: (5e-2, 5e-2)})


# input shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override
CASES_3D = [
    ((2, 3, 6, 6, 6), 2, None, 0, False, True, None),
    ((1, 2, 7, 9, 5), (3, 2, 3), (2, 1, 2), (1, 1, 0), True, False, None),
    ((1, 2, 7, 9, 5), 3, 2, 1, True, True, None),
    ((2, 5, 6, 7), 3, 2, 1, False, True, 4),  # unbatched
]


@pytest.mark.parametrize("case", CASES_3D, ids=str)
def test_3d_matches_cpu(case, no_fallback):
    shape, *args = case
    torch.manual_seed(0)
    compare(torch.randn(shape), args, pool=F.avg_pool3d)


def test_3d_long_and_float16(no_fallback):
    torch.manual_seed(0)
    compare((torch.randn(1, 2, 5, 5, 5) * 50).long(), (3, 2, 1, True, False, None), pool=F.avg_pool3d)
    # The CPU has no float16 avg_pool3d: float32's, rounded.
    x = torch.randn(1, 2, 5, 6, 7)
    got = F.avg_pool3d(x.half().to("vulkan"), 2, 1, 1).cpu()
    torch.testing.assert_close(got, F.avg_pool3d(x.half().float(), 2, 1, 1).half(), rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("shape,output_size", [((2, 3, 5, 7, 9), (2, 3, 4)), ((3, 4, 4, 4), (3, 5, 1))], ids=str)
def test_adaptive_3d_matches_cpu(shape, output_size, no_fallback):
    compare_adaptive(torch.randn(shape), output_size)
    out = torch.empty(0, device="vulkan")
    torch.ops.aten.adaptive_avg_pool3d.out(torch.ones(shape, device="vulkan"), output_size, out=out)
    assert out.shape[-3:] == output_size and torch.all(out.cpu() == 1)


@parametrize(["nn.functional.avg_pool3d", "nn.functional.adaptive_avg_pool3d"], variants=["functional"])
def test_3d_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant, tolerances={torch.float16: (1e-2, 1e-2), torch.bfloat16: (5e-2, 5e-2)})
