"""max_pool1d/max_pool2d and adaptive_max_pool1d/2d on the vulkan device
(csrc/aten/ops/pool/max_pool.cpp), in strict mode against the CPU: values,
indices (ties, NaN) and gradients over strides, padding, dilation,
ceil_mode, output sizes, layouts and dtypes."""

import pytest
import torch
import torch.nn.functional as F

from tests.aten.ops.pool.leaves import leaf_pair
from tests.opinfo import check_op, parametrize

# input shape, kernel, stride, padding, dilation, ceil_mode
CASES = [
    ((2, 3, 8, 8), 2, None, 0, 1, False),
    ((2, 3, 9, 7), 3, 2, 1, 1, True),
    ((1, 2, 10, 10), 3, 2, 1, 2, False),
    ((3, 9, 9), 2, 1, 0, 1, False),  # unbatched
    ((2, 3, 8, 8), (3, 2), (2, 1), (1, 0), (1, 2), True),
    ((2, 1, 5, 5), 5, 1, 2, 1, False),  # windows mostly in the padding
]


def compare(x, args, channels_last=False):
    x, xv = leaf_pair(x, channels_last)
    out, idx = F.max_pool2d(x, *args, return_indices=True)
    outv, idxv = F.max_pool2d(xv, *args, return_indices=True)
    assert outv.device.type == "vulkan"
    assert torch.equal(idxv.cpu(), idx)
    torch.testing.assert_close(outv.cpu(), out, equal_nan=True, rtol=0, atol=0)
    if x.dtype.is_floating_point:
        grad = torch.randn(out.shape).to(x.dtype)
        out.backward(grad)
        outv.backward(grad.to("vulkan"))
        torch.testing.assert_close(xv.grad.cpu(), x.grad)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_matches_cpu(case, no_fallback):
    shape, *args = case
    torch.manual_seed(0)
    compare(torch.randn(shape), args)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float64, torch.int32, torch.uint8], ids=str)
def test_dtypes(dtype, no_fallback):
    if dtype == torch.float64 and not torch.vulkan.get_device_properties().float64:
        pytest.skip("no float64 on this device")
    torch.manual_seed(0)
    compare((torch.randn(2, 3, 7, 7) * 50).to(dtype), (3, 2, 1, 1, True))


def test_ties_nan_and_layout(no_fallback):
    # Ties keep the first position, a NaN replaces the maximum (the last NaN
    # of a window wins), as on the CPU.
    x = torch.zeros(1, 2, 6, 6)
    x[0, 1, 1, 1] = x[0, 1, 3, 3] = float("nan")
    compare(x, (3, 1, 1, 1, False))
    compare(torch.randn(2, 4, 9, 9), (3, 2, 1, 1, False), channels_last=True)


@parametrize(["nn.functional.max_pool1d", "nn.functional.max_pool2d"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


@pytest.mark.parametrize("shape,output_size", [((2, 3, 7, 9), (3, 4)), ((3, 10, 10), (4, 4)), ((1, 2, 5, 5), (7, 2)),
                                               ((2, 2, 6, 6), (1, 1))], ids=str)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=str)
def test_adaptive_matches_cpu(shape, output_size, dtype, no_fallback):
    torch.manual_seed(0)
    x, xv = leaf_pair(torch.randn(shape).to(dtype))
    (out, idx), (outv, idxv) = (F.adaptive_max_pool2d(t, output_size, return_indices=True) for t in (x, xv))
    torch.testing.assert_close(outv.cpu(), out)
    torch.testing.assert_close(idxv.cpu(), idx)
    grad = torch.randn(out.shape).to(dtype)
    out.backward(grad)
    outv.backward(grad.to("vulkan"))
    torch.testing.assert_close(xv.grad.cpu(), x.grad)


def test_adaptive_nan_and_bad_input(no_fallback):
    x = torch.zeros(1, 1, 4, 4)
    x[0, 0, 1, 2] = float("nan")
    torch.testing.assert_close(F.adaptive_max_pool2d(x.to("vulkan"), 2, return_indices=True)[1].cpu(),
                               F.adaptive_max_pool2d(x, 2, return_indices=True)[1])
    with pytest.raises(RuntimeError, match="non-zero size for non-batch dimensions"):
        F.adaptive_max_pool2d(torch.ones(1, 0, 4, 4, device="vulkan"), 2)


@parametrize(["nn.functional.adaptive_max_pool1d", "nn.functional.adaptive_max_pool2d"], variants=["functional"])
def test_adaptive_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
