"""nextafter compared with the CPU bit for bit: zeros of both signs, the
subnormals (which a driver may flush in float32 arithmetic), the largest
finite values, infinities and NaN."""

import pytest
import torch

from tests.aten.ops.elementwise.test_binary_edge_values import f64_ok, pairs

FLOATS = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
BITS = {torch.float16: torch.int16, torch.bfloat16: torch.int16, torch.float32: torch.int32,
        torch.float64: torch.int64}


def edges(dtype):
    info = torch.finfo(dtype)
    tiny_sub = info.smallest_normal * info.eps  # the smallest subnormal
    values = [0.0, 1.0, 1.5, info.smallest_normal, tiny_sub, info.smallest_normal - tiny_sub, info.max,
              float("inf")]
    return [v for x in values for v in (x, -x)] + [float("nan")]


def same_bits(actual, expected):
    assert actual.device.type == "vulkan" and actual.dtype == expected.dtype
    actual = actual.cpu()
    nan = expected.isnan()
    assert torch.equal(actual.isnan(), nan)
    assert torch.equal(actual[~nan].view(BITS[expected.dtype]), expected[~nan].view(BITS[expected.dtype]))


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_nextafter_edges(dtype, no_fallback):
    if not f64_ok(dtype):
        pytest.skip("no float64 on this device")
    a, b = pairs(edges(dtype), dtype)
    same_bits(torch.nextafter(a.to("vulkan"), b.to("vulkan")), torch.nextafter(a, b))
    out = torch.empty_like(a, device="vulkan")
    torch.nextafter(a.to("vulkan"), b.to("vulkan"), out=out)
    same_bits(out, torch.nextafter(a, b))
    x = a.to("vulkan")
    x.nextafter_(b.to("vulkan"))
    same_bits(x, torch.nextafter(a, b))


def test_nextafter_broadcast_strided_and_promoted(no_fallback):
    a = torch.randn(6, 4)
    b = torch.tensor([float("inf"), -float("inf"), 0.0, float("nan")])
    same_bits(torch.nextafter(a.to("vulkan").t(), b[:, None].to("vulkan")), torch.nextafter(a.t(), b[:, None]))
    same_bits(torch.nextafter(a.to("vulkan")[::2], b.to("vulkan")), torch.nextafter(a[::2], b))
    # float32 with float64 promotes to float64; a 0-dim host tensor is a scalar.
    same_bits(torch.nextafter(a.to("vulkan"), b.double().to("vulkan")), torch.nextafter(a, b.double()))
    same_bits(torch.nextafter(a.to("vulkan"), torch.tensor(0.0)), torch.nextafter(a, torch.tensor(0.0)))


def test_nextafter_out_and_errors(no_fallback):
    a, b = torch.randn(5), torch.randn(5)
    out = torch.empty(0, device="vulkan")  # resized
    torch.nextafter(a.to("vulkan"), b.to("vulkan"), out=out)
    same_bits(out, torch.nextafter(a, b))
    out = torch.empty(5, dtype=torch.float64, device="vulkan")  # computed in float32, then widened
    expected = torch.empty(5, dtype=torch.float64)
    torch.nextafter(a.to("vulkan"), b.to("vulkan"), out=out)
    same_bits(out, torch.nextafter(a, b, out=expected))
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        torch.nextafter(a.to("vulkan"), b.to("vulkan"), out=torch.empty(5, dtype=torch.int64, device="vulkan"))
    with pytest.raises(RuntimeError, match="nextafter_cpu\" not implemented for 'Long'"):
        torch.nextafter(torch.tensor([1, 2], device="vulkan"), torch.tensor([3, 4], device="vulkan"))
    with pytest.raises(RuntimeError, match="size of tensor a"):
        torch.nextafter(a.to("vulkan"), torch.randn(3, device="vulkan"))
