"""fill_ and zero_, on whole tensors and on non-contiguous views."""

import pytest
import torch

from tests.helpers import ALL_DTYPES, assert_bitwise_equal, assert_same_values

VALUES = {
    torch.bool: [True, False],
    torch.uint8: [0, 255, 7],
    torch.int8: [-128, 127, -1],
    torch.int16: [-32768, 32767],
    torch.int32: [-(2**31), 2**31 - 1],
    torch.int64: [-(2**63), 2**63 - 1, 2**53 + 1],
    torch.float16: [1.5, -0.0, 65504.0, float("inf"), float("nan"), 1 / 3],
    torch.bfloat16: [1.5, -0.0, 3e38, float("-inf"), float("nan"), 1 / 3],
    torch.float32: [1.5, -0.0, 3.4e38, float("inf"), float("nan"), 0.1, 1e-45],
    torch.float64: [1.5, -0.0, 1e308, float("-inf"), float("nan"), 0.1, 5e-324],
}


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_fill_matches_cpu(dtype, no_fallback):
    for value in VALUES[dtype]:
        d = torch.empty(7, dtype=dtype, device="vulkan")
        d.fill_(value)
        assert_same_values(d.cpu(), torch.empty(7, dtype=dtype).fill_(value))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_fill_negative_zero_bits(dtype, no_fallback):
    d = torch.ones(5, dtype=dtype, device="vulkan").fill_(-0.0)
    assert_bitwise_equal(d.cpu(), torch.full((5,), -0.0, dtype=dtype))


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int16, torch.float16, torch.float64, torch.bool], ids=str)
def test_fill_non_contiguous_view(dtype, no_fallback):
    one = torch.ones((), dtype=dtype)
    c = torch.zeros(4, 6, dtype=dtype)
    d = c.to("vulkan")
    d[:, ::2].fill_(one.item())
    d.t()[1:3, 1].fill_(one.item())
    c[:, ::2].fill_(one.item())
    c.t()[1:3, 1].fill_(one.item())
    assert torch.equal(d.cpu(), c)


def test_zero_non_contiguous_view(no_fallback):
    c = torch.arange(1, 25, dtype=torch.int32).reshape(4, 6)
    d = c.to("vulkan")
    d[1:, 1::2].zero_()
    d.diagonal().zero_()
    c[1:, 1::2].zero_()
    c.diagonal().zero_()
    assert torch.equal(d.cpu(), c)


def test_zero_whole_tensor(no_fallback):
    d = torch.full((3, 3), 9.0, device="vulkan")
    assert d.zero_() is d
    assert torch.equal(d.cpu(), torch.zeros(3, 3))


def test_fill_storage_offset_odd_bytes(no_fallback):
    c = torch.zeros(11, dtype=torch.uint8)
    d = c.to("vulkan")
    d[3:8].fill_(200)
    c[3:8].fill_(200)
    assert torch.equal(d.cpu(), c)
    e = torch.zeros(9, dtype=torch.float16, device="vulkan")
    e[1::3].fill_(-2.0)
    f = torch.zeros(9, dtype=torch.float16)
    f[1::3].fill_(-2.0)
    assert torch.equal(e.cpu(), f)


def test_fill_with_zero_dim_tensor(no_fallback):
    d = torch.zeros(4, device="vulkan")
    d.fill_(torch.tensor(3.25))
    assert torch.equal(d.cpu(), torch.full((4,), 3.25))
    d.fill_(torch.tensor(-1.5).to("vulkan"))
    assert torch.equal(d.cpu(), torch.full((4,), -1.5))


def test_fill_with_non_scalar_tensor_raises():
    d = torch.zeros(4, device="vulkan")
    with pytest.raises(RuntimeError, match="0-dimension"):
        d.fill_(torch.ones(2))


@pytest.mark.parametrize("value", [256, 1000, 1e10])
def test_fill_out_of_range_uint8_raises_like_cpu(value):
    with pytest.raises(RuntimeError) as cpu_error:
        torch.zeros(3, dtype=torch.uint8).fill_(value)
    d = torch.zeros(3, dtype=torch.uint8, device="vulkan")
    with pytest.raises(RuntimeError) as vk_error:
        d.fill_(value)
    assert str(cpu_error.value).split("\n")[0] in str(vk_error.value)
    assert torch.equal(d.cpu(), torch.zeros(3, dtype=torch.uint8))


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int8, torch.bool, torch.float16], ids=str)
@pytest.mark.parametrize("value", [-1, 128, 300, 70000.0, -2**40])
def test_fill_edge_value_behaves_like_cpu(dtype, value):
    cpu = torch.zeros(3, dtype=dtype)
    d = torch.zeros(3, dtype=dtype, device="vulkan")
    try:
        cpu.fill_(value)
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as vk_error:
            d.fill_(value)
        assert str(e).split("\n")[0] in str(vk_error.value)
    else:
        d.fill_(value)
        assert_same_values(d.cpu(), cpu)


def test_fill_float_into_int_truncates_like_cpu(no_fallback):
    for dtype in (torch.int8, torch.int32, torch.int64):
        d = torch.zeros(3, dtype=dtype, device="vulkan").fill_(-2.7)
        assert torch.equal(d.cpu(), torch.zeros(3, dtype=dtype).fill_(-2.7))


def test_fill_empty_tensor(no_fallback):
    d = torch.empty(0, device="vulkan")
    d.fill_(1.0)
    assert d.numel() == 0
