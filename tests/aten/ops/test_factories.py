import pytest
import torch

DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16,
          torch.float32, torch.float64]


def same(actual, expected):
    assert actual.device.type == "vulkan"
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    torch.testing.assert_close(actual.cpu(), expected, rtol=1e-5 if expected.dtype != torch.bfloat16 else 1e-2,
                               atol=1e-5 if expected.is_floating_point() else 0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_arange(dtype, no_fallback):
    for args in [(10,), (2, 11), (1, 20, 3), (10, 0, -2)]:
        same(torch.arange(*args, dtype=dtype, device="vulkan"), torch.arange(*args, dtype=dtype))
    if dtype.is_floating_point:
        same(torch.arange(0, 1, 0.1, dtype=dtype, device="vulkan"), torch.arange(0, 1, 0.1, dtype=dtype))
        same(torch.arange(-1.5, 2.25, 0.25, dtype=dtype, device="vulkan"), torch.arange(-1.5, 2.25, 0.25, dtype=dtype))


def test_arange_default_dtypes(no_fallback):
    same(torch.arange(5, device="vulkan"), torch.arange(5))
    same(torch.arange(0.5, 3, device="vulkan"), torch.arange(0.5, 3))
    out = torch.empty(3, device="vulkan")
    torch.arange(4, out=out)
    same(out, torch.arange(4.0))


@pytest.mark.parametrize("dtype", DTYPES)
def test_linspace(dtype, no_fallback):
    for start, end, steps in [(0, 10, 5), (-3, 7, 11), (5, -5, 4), (0, 1, 1), (2, 3, 0), (0, 100, 33)]:
        same(torch.linspace(start, end, steps, dtype=dtype, device="vulkan"),
             torch.linspace(start, end, steps, dtype=dtype))


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool, torch.float16])
def test_eye_full(dtype, no_fallback):
    same(torch.eye(3, dtype=dtype, device="vulkan"), torch.eye(3, dtype=dtype))
    same(torch.eye(2, 4, dtype=dtype, device="vulkan"), torch.eye(2, 4, dtype=dtype))
    same(torch.full((2, 3), 1, dtype=dtype, device="vulkan"), torch.full((2, 3), 1, dtype=dtype))
    same(torch.zeros(4, dtype=dtype, device="vulkan"), torch.zeros(4, dtype=dtype))
    same(torch.ones(4, dtype=dtype, device="vulkan"), torch.ones(4, dtype=dtype))
