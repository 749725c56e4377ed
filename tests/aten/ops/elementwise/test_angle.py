"""angle of real tensors: pi below zero, 0 from -0.0 up, NaN kept; integer and
bool inputs promote to the default float dtype as on the CPU."""

import pytest
import torch

from tests.aten.ops.elementwise.test_binary_edge_values import f64_ok

FLOATS = [torch.float16, torch.bfloat16, torch.float32, torch.float64]


def same(actual, expected):
    assert actual.device.type == "vulkan" and actual.dtype == expected.dtype
    torch.testing.assert_close(actual.cpu(), expected, equal_nan=True, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_angle_edges(dtype, no_fallback):
    if not f64_ok(dtype):
        pytest.skip("no float64 on this device")
    tiny = torch.finfo(dtype).smallest_normal * torch.finfo(dtype).eps  # subnormals keep their sign
    x = torch.tensor([0.0, -0.0, 1.0, -1.0, tiny, -tiny, torch.finfo(dtype).max, -torch.finfo(dtype).max,
                      float("inf"), -float("inf"), float("nan")], dtype=dtype)
    same(torch.angle(x.to("vulkan")), torch.angle(x))
    same(torch.angle(x.to("vulkan")[::2]), torch.angle(x[::2]))  # strided
    same(torch.angle(x.view(1, -1).expand(3, -1).to("vulkan")), torch.angle(x.view(1, -1).expand(3, -1)))


@pytest.mark.parametrize("dtype", [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64],
                         ids=str)
def test_angle_of_integers(dtype, no_fallback):
    x = torch.tensor([0, 1, -1, 127, -128], dtype=torch.int64).to(dtype)
    same(torch.angle(x.to("vulkan")), torch.angle(x))


def test_angle_out(no_fallback):
    x = torch.randn(2, 3)
    out = torch.empty(3, 2, device="vulkan").t()  # non-contiguous out keeps its strides
    torch.angle(x.to("vulkan"), out=out)
    same(out, torch.angle(x))
    out = torch.empty(0, dtype=torch.float64, device="vulkan")  # another float dtype, resized
    torch.angle(x.to("vulkan"), out=out)
    same(out, torch.angle(x).double())
    out = torch.empty(5, device="vulkan")
    torch.angle(torch.tensor([-3, 0, 2, -1, 7], device="vulkan"), out=out)
    same(out, torch.angle(torch.tensor([-3, 0, 2, -1, 7])))
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.angle(x.to("vulkan"), out=torch.empty(2, 3, dtype=torch.int64, device="vulkan"))
