"""_add_relu(self, other, alpha) = relu(self + alpha * other), clamped above
at the largest value of self's dtype as ATen's add_clamp, compared with the
CPU."""

import pytest
import torch

from tests.aten.ops.elementwise.test_binary_edge_values import f64_ok

DTYPES = [torch.int8, torch.int16, torch.int32, torch.int64, torch.float32, torch.float64]


def same(actual, expected, exact=True):
    assert actual.device.type == "vulkan" and actual.dtype == expected.dtype
    # alpha != 1: the CPU's vector loop fuses the multiply-add, its scalar loop does not.
    tol = {} if exact else {"rtol": 1e-6, "atol": 1e-6}
    torch.testing.assert_close(actual.cpu(), expected, equal_nan=True, **({"rtol": 0, "atol": 0} | tol))


def inputs(dtype):
    if dtype.is_floating_point:
        a, b = torch.randn(37, dtype=dtype) * 4, torch.randn(37, dtype=dtype) * 4
        big = torch.finfo(dtype).max
        a[:4] = torch.tensor([float("inf"), big, -float("inf"), 0.0], dtype=dtype)
        b[:4] = torch.tensor([1.0, big, 5.0, -0.0], dtype=dtype)
    else:
        info = torch.iinfo(dtype)
        a = torch.randint(-50, 50, (37,), dtype=dtype)
        b = torch.randint(-50, 50, (37,), dtype=dtype)
        a[:2] = torch.tensor([info.max, info.min], dtype=dtype)  # sums that wrap
        b[:2] = torch.tensor([3, -3], dtype=dtype)
    return a, b


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_add_relu(dtype, no_fallback):
    if not f64_ok(dtype):
        pytest.skip("no float64 on this device")
    a, b = inputs(dtype)
    va, vb = a.to("vulkan"), b.to("vulkan")
    same(torch._add_relu(va, vb), torch._add_relu(a, b))
    same(torch._add_relu(va, vb, alpha=3), torch._add_relu(a, b, alpha=3), exact=not dtype.is_floating_point)
    same(torch._add_relu(va, 2), torch._add_relu(a, 2))
    same(torch._add_relu(va, 2, alpha=-2), torch._add_relu(a, 2, alpha=-2))
    out = torch.empty(0, dtype=dtype, device="vulkan")
    torch._add_relu(va, vb, out=out)
    same(out, torch._add_relu(a, b))
    x = va.clone()
    torch._add_relu_(x, vb)
    same(x, torch._add_relu(a, b))
    x = va.clone()
    torch._add_relu_(x, 3)
    same(x, torch._add_relu(a, 3))


def test_add_relu_nan_and_integer_alpha(no_fallback):
    # NaN stays NaN, as in the CPU's vector loop (its scalar tail gives 0).
    a, b = torch.tensor([float("nan"), 1.0, -1.0]), torch.tensor([1.0, float("nan"), 0.5])
    assert torch._add_relu(a.to("vulkan"), b.to("vulkan")).cpu().isnan().tolist() == [True, True, False]
    # An integer sum takes alpha converted to its dtype: 1.5 steps by 1.
    a, b = torch.tensor([1, -5, 7], dtype=torch.int32), torch.tensor([1, 2, -3], dtype=torch.int32)
    same(torch._add_relu(a.to("vulkan"), b.to("vulkan"), alpha=1.5), torch._add_relu(a, b, alpha=1.5))


def test_add_relu_broadcast_strided_promoted(no_fallback):
    a, b = torch.randn(4, 6), torch.randn(6)
    same(torch._add_relu(a.to("vulkan").t(), b[:4].to("vulkan")), torch._add_relu(a.t(), b[:4]))
    same(torch._add_relu(a.to("vulkan")[:, ::2], b[::2].to("vulkan")), torch._add_relu(a[:, ::2], b[::2]))
    i = torch.tensor([[1, -5, 3, 0, 2, -1]], dtype=torch.int32)
    same(torch._add_relu(i.to("vulkan"), b.to("vulkan")), torch._add_relu(i, b))  # int32 + float32: float32
    same(torch._add_relu(i.to("vulkan"), 2.5), torch._add_relu(i, 2.5))
    out = torch.empty(4, 6, dtype=torch.float64, device="vulkan")
    torch._add_relu(a.to("vulkan"), b.to("vulkan"), out=out)
    same(out, torch._add_relu(a, b).double())


def test_add_relu_errors(no_fallback):
    for dtype in [torch.uint8, torch.float16, torch.bfloat16, torch.bool]:
        x = torch.ones(3, dtype=dtype, device="vulkan")
        with pytest.raises(RuntimeError, match="Unsupported datatype for add_relu"):
            torch._add_relu(x, x)
    x = torch.ones(3, dtype=torch.int32, device="vulkan")
    with pytest.raises(RuntimeError, match="add_clamp_cpu\" not implemented for 'Half'"):
        torch._add_relu(x, torch.ones(3, dtype=torch.float16, device="vulkan"))
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Int"):
        torch._add_relu_(x, torch.ones(3, device="vulkan"))
    with pytest.raises(RuntimeError, match="size of tensor a"):
        torch._add_relu(torch.ones(3, device="vulkan"), torch.ones(4, device="vulkan"))
