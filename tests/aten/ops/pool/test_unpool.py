"""max_unpool1d/2d/3d on the vulkan device (csrc/aten/ops/pool/unpool.cpp),
in strict mode against the CPU: max pooling's indices undone, values and
gradients, explicit output sizes, channels-last input, the out= forms,
OpInfo samples and bad arguments."""

import pytest
import torch
import torch.nn.functional as F

from tests.helpers import assert_out_matches_cpu, assert_raises_as_cpu
from tests.opinfo import check_op, parametrize


@pytest.mark.parametrize("spatial", [1, 2, 3])
def test_matches_cpu(spatial, no_fallback):
    torch.manual_seed(0)
    pool, unpool = {1: (F.max_pool1d, F.max_unpool1d), 2: (F.max_pool2d, F.max_unpool2d),
                    3: (F.max_pool3d, F.max_unpool3d)}[spatial]
    x = torch.randn(2, 3, *([7] * spatial))
    values, indices = pool(x, 2, return_indices=True)
    values.requires_grad_()
    vv = values.detach().to("vulkan").requires_grad_()
    size = [7] * spatial
    out = unpool(values, indices, 2, output_size=size)
    outv = unpool(vv, indices.to("vulkan"), 2, output_size=size)
    torch.testing.assert_close(outv.cpu(), out, rtol=0, atol=0)
    grad = torch.randn(out.shape)
    out.backward(grad)
    outv.backward(grad.to("vulkan"))
    torch.testing.assert_close(vv.grad.cpu(), values.grad)


def test_channels_last_and_bad_arguments(no_fallback):
    x = torch.randn(2, 3, 6, 6)
    values, indices = F.max_pool2d(x, 2, return_indices=True)
    vv = values.to("vulkan").contiguous(memory_format=torch.channels_last)
    iv = indices.to("vulkan").contiguous(memory_format=torch.channels_last)
    out = F.max_unpool2d(vv, iv, 2)
    assert out.is_contiguous(memory_format=torch.channels_last)
    torch.testing.assert_close(out.cpu(), F.max_unpool2d(values, indices, 2))
    with pytest.raises(RuntimeError, match="should be type int64"):
        F.max_unpool2d(vv, iv.int(), 2)
    with pytest.raises(RuntimeError, match="same as that of the input tensor"):
        F.max_unpool2d(vv, iv[:1], 2)


def max_unpool2d(values, indices, out):
    return torch.ops.aten.max_unpool2d.out(values, indices, [6, 7], out=out)


def max_unpool3d(values, indices, out):
    return torch.ops.aten.max_unpool3d.out(values, indices, [6, 7, 5], [2, 2, 2], [0, 0, 0], out=out)


@pytest.mark.parametrize("channels_last", [False, True])
def test_out_forms(channels_last, no_fallback):
    torch.manual_seed(0)
    values, indices = F.max_pool2d(torch.randn(2, 3, 6, 7), 2, return_indices=True)
    if channels_last:  # a resized out is channels-last too, as on the CPU
        values = values.contiguous(memory_format=torch.channels_last)
        indices = indices.contiguous(memory_format=torch.channels_last)
    assert_out_matches_cpu(max_unpool2d, values, indices)
    assert_out_matches_cpu(max_unpool2d, values[0], indices[0])  # unbatched
    values3, indices3 = F.max_pool3d(torch.randn(2, 3, 6, 7, 5), 2, return_indices=True)
    assert_out_matches_cpu(max_unpool3d, values3, indices3)
    assert_raises_as_cpu(max_unpool2d, values, indices, torch.empty(0, dtype=torch.float64))
    assert_raises_as_cpu(max_unpool3d, values3, indices3, torch.empty(0, dtype=torch.int32))
    assert_raises_as_cpu(max_unpool2d, values, indices.int(), torch.empty(0))


@parametrize(["nn.functional.max_unpool1d", "nn.functional.max_unpool2d", "nn.functional.max_unpool3d"],
             variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
