"""max_pool1d/2d/3d and adaptive_max_pool1d/2d/3d on the vulkan device
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


def compare(x, args, channels_last=False, pool=F.max_pool2d):
    x, xv = leaf_pair(x, channels_last)
    out, idx = pool(x, *args, return_indices=True)
    outv, idxv = pool(xv, *args, return_indices=True)
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


# input shape, kernel, stride, padding, dilation, ceil_mode
CASES_3D = [
    ((2, 3, 6, 6, 6), 2, None, 0, 1, False),
    ((1, 2, 7, 9, 5), (3, 2, 3), (2, 1, 2), (1, 1, 0), (1, 2, 1), True),
    ((2, 5, 6, 7), 3, 2, 1, 1, False),  # unbatched
]


@pytest.mark.parametrize("case", CASES_3D, ids=str)
def test_3d_matches_cpu(case, no_fallback):
    shape, *args = case
    torch.manual_seed(0)
    compare(torch.randn(shape), args, pool=F.max_pool3d)


def test_3d_window_in_padding(no_fallback):
    # Dilation 3 with padding 1 over D = 2: the only window along D holds
    # positions -1 and 2, none inside. The CPU gives -inf at the window's
    # first position (out of range; its backward then writes past the
    # gradient, so only the forward is compared). Here the backward's
    # scatter_add drops that index.
    x = torch.randn(1, 1, 2, 4, 4)
    out, idx = F.max_pool3d(x, 2, 1, 1, 3, return_indices=True)
    outv, idxv = F.max_pool3d(x.to("vulkan"), 2, 1, 1, 3, return_indices=True)
    assert torch.equal(outv.cpu(), out) and torch.equal(idxv.cpu(), idx)


@pytest.mark.parametrize("dtype", [torch.float16, torch.int64, torch.uint8], ids=str)
def test_3d_dtypes_and_ties(dtype, no_fallback):
    torch.manual_seed(0)
    compare((torch.randn(1, 2, 5, 5, 5) * 3).to(dtype), (3, 2, 1, 1, True), pool=F.max_pool3d)
    x = torch.zeros(1, 1, 4, 4, 4)
    x[0, 0, 1, 1, 1] = x[0, 0, 2, 2, 2] = float("nan")
    compare(x, (3, 1, 1, 1, False), pool=F.max_pool3d)


def test_3d_channels_last_and_bad_input(no_fallback):
    x = torch.randn(2, 3, 5, 5, 5)
    out = F.max_pool3d(x.to("vulkan").contiguous(memory_format=torch.channels_last_3d), 2)
    assert out.is_contiguous(memory_format=torch.channels_last_3d)
    torch.testing.assert_close(out.cpu(), F.max_pool3d(x, 2))
    with pytest.raises(RuntimeError, match="pad should be at most half of effective kernel size"):
        F.max_pool3d(torch.ones(1, 1, 4, 4, 4, device="vulkan"), 2, padding=2)
    with pytest.raises(RuntimeError, match="kernel_size must either be a single int, or a tuple of three"):
        torch.ops.aten.max_pool3d_with_indices(torch.ones(1, 1, 4, 4, 4, device="vulkan"), [2, 2])


@pytest.mark.parametrize("shape,output_size", [((2, 3, 5, 7, 9), (2, 3, 4)), ((3, 4, 4, 4), (3, 3, 3))], ids=str)
def test_adaptive_3d_matches_cpu(shape, output_size, no_fallback):
    torch.manual_seed(0)
    x, xv = leaf_pair(torch.randn(shape))
    (out, idx), (outv, idxv) = (F.adaptive_max_pool3d(t, output_size, return_indices=True) for t in (x, xv))
    torch.testing.assert_close(outv.cpu(), out)
    torch.testing.assert_close(idxv.cpu(), idx)
    grad = torch.randn(out.shape)
    out.backward(grad)
    outv.backward(grad.to("vulkan"))
    torch.testing.assert_close(xv.grad.cpu(), x.grad)


@parametrize(["nn.functional.max_pool3d", "nn.functional.adaptive_max_pool3d"], variants=["functional"])
def test_3d_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
