"""F.unfold and F.fold (im2col / col2im, csrc/aten/ops/conv/unfold.cpp) on the
vulkan device, in strict mode against the CPU: values and gradients over
kernel sizes, dilation, padding and stride, batched and not, the out= forms,
and the CPU's errors."""

import pytest
import torch
import torch.nn.functional as F

from tests.helpers import assert_out_matches_cpu, assert_raises_as_cpu, kernels_of
from tests.opinfo import check_op, parametrize

# input shape, kernel, dilation, padding, stride
CASES = [
    ((2, 3, 7, 8), 3, 1, 0, 1),
    ((2, 3, 7, 8), (2, 3), (1, 2), (1, 0), (2, 1)),
    ((3, 6, 6), 2, 1, 1, 2),  # unbatched
    ((1, 2, 5, 5), 5, 1, 2, 1),
]


@pytest.mark.parametrize("shape,kernel,dilation,padding,stride", CASES, ids=str)
def test_unfold_and_fold_match_cpu(shape, kernel, dilation, padding, stride, no_fallback):
    torch.manual_seed(0)
    args = (kernel, dilation, padding, stride)
    x = torch.randn(shape, requires_grad=True)
    xv = x.detach().to("vulkan").requires_grad_()
    cols, colsv = F.unfold(x, *args), F.unfold(xv, *args)
    torch.testing.assert_close(colsv.cpu(), cols)
    grad = torch.randn(cols.shape)
    cols.backward(grad)
    colsv.backward(grad.to("vulkan"))
    torch.testing.assert_close(xv.grad.cpu(), x.grad)
    # fold is unfold's adjoint: its gradient is unfold.
    c = torch.randn(cols.shape, requires_grad=True)
    cv = c.detach().to("vulkan").requires_grad_()
    out, outv = F.fold(c, shape[-2:], *args), F.fold(cv, shape[-2:], *args)
    torch.testing.assert_close(outv.cpu(), out)
    g = torch.randn(out.shape)
    out.backward(g)
    outv.backward(g.to("vulkan"))
    torch.testing.assert_close(cv.grad.cpu(), c.grad)


# shaders/conv/im2col.comp moves raw bits of each element width, rows of a
# multiple of 16 bytes as vectors (8 x 8 positions) and the rest value by
# value (7 x 7); col2im.comp sums in the image's compute type. A strided
# and a channels-last image are read in place. (The CPU unfolds no
# integers: uint8 is compared with its float unfold.)
@pytest.mark.parametrize("dtype", [torch.uint8, torch.float16, torch.float32, torch.float64], ids=str)
@pytest.mark.parametrize("size", [8, 7])
def test_column_kernels(dtype, size, no_fallback):
    if dtype == torch.float64 and not torch.vulkan.get_device_properties().float64:
        pytest.skip("no float64 on this device")
    torch.manual_seed(0)
    x = torch.randint(0, 100, (2, 3, size, size)).to(dtype)
    width = x.element_size()
    wide = torch.cat([x, x], 3)
    images = [(x, x.to("vulkan")),
              (x.contiguous(memory_format=torch.channels_last),
               x.to("vulkan").contiguous(memory_format=torch.channels_last)),
              (wide[..., ::2], wide.to("vulkan")[..., ::2])]
    for image, xv in images:
        assert kernels_of(lambda: F.unfold(xv, 3, padding=1)) == [f"im2col.{width}"]
        expected = F.unfold(image.float() if dtype == torch.uint8 else image, 3, padding=1).to(dtype)
        torch.testing.assert_close(F.unfold(xv, 3, padding=1).cpu(), expected)
    if dtype in (torch.float16, torch.float32):
        columns = torch.randn(2, 27, size * size).to(dtype)
        cv = columns.to("vulkan")
        suffix = {torch.float16: "f16", torch.float32: "f32"}[dtype]
        assert kernels_of(lambda: F.fold(cv, size, 3, padding=1)) == [f"col2im.add.{suffix}"]
        reference = F.fold(columns.double(), size, 3, padding=1).to(dtype)
        torch.testing.assert_close(F.fold(cv, size, 3, padding=1).cpu(), reference)


def test_errors(no_fallback):
    x = torch.ones(1, 2, 4, 4, device="vulkan")
    with pytest.raises(RuntimeError, match="kernel size should be greater than zero"):
        torch.ops.aten.im2col(x, [0, 2], [1, 1], [0, 0], [1, 1])
    with pytest.raises(RuntimeError, match="Given input with spatial size"):
        F.unfold(x, 5)
    with pytest.raises(RuntimeError, match="Expected size of input's dimension 1 to be divisible by the product"):
        F.fold(torch.ones(1, 5, 9, device="vulkan"), (4, 4), 2)


def im2col(x, out):
    return torch.ops.aten.im2col.out(x, [2, 3], [1, 2], [1, 0], [2, 1], out=out)


def col2im(columns, out):
    return torch.ops.aten.col2im.out(columns, [5, 6], [2, 3], [1, 2], [1, 0], [2, 1], out=out)


@pytest.mark.parametrize("batched", [True, False])
def test_out_forms(batched, no_fallback):
    torch.manual_seed(0)
    x, columns = torch.randn(2, 3, 5, 6), torch.randn(2, 18, 6)
    if not batched:
        x, columns = x[0], columns[0]
    assert_out_matches_cpu(im2col, x)
    assert_out_matches_cpu(col2im, columns)
    # An out of another dtype: the CPU's kernels refuse it.
    assert_raises_as_cpu(im2col, x, torch.empty(0, dtype=torch.int64))
    assert_raises_as_cpu(col2im, columns, torch.empty(0, dtype=torch.float16))
    assert_raises_as_cpu(im2col, torch.ones(1, 2, 1, 1), torch.empty(0))  # the shape check


@parametrize(["nn.functional.unfold"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
