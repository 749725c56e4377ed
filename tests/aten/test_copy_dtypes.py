"""Host <-> device round trips of every dtype, bit-exact, and conversions on the device."""

import math

import pytest
import torch

from tests.helpers import ALL_DTYPES, FLOAT_DTYPES, assert_bitwise_equal, assert_same_values


def edge_values(dtype: torch.dtype) -> torch.Tensor:
    if dtype == torch.bool:
        return torch.tensor([True, False, True, True, False])
    if not dtype.is_floating_point:
        info = torch.iinfo(dtype)
        vals = [info.min, info.min + 1, -1, 0, 1, 2, 100, info.max - 1, info.max]
        if dtype == torch.int64:
            vals += [2**53 + 1, -(2**53) - 1, 2**32, 2**31]
        return torch.tensor([v for v in vals if info.min <= v <= info.max], dtype=dtype)
    info = torch.finfo(dtype)
    vals = torch.tensor(
        [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, info.max, info.min, info.tiny, info.eps, 1 / 3],
        dtype=torch.float64,
    ).to(dtype)
    smallest_subnormal = bits_to(torch.tensor([1]), dtype)
    neg_nan_payload = bits_to(torch.tensor([_nan_bits(dtype, sign=True, payload=3)]), dtype)
    return torch.cat([vals, smallest_subnormal, neg_nan_payload])


def _nan_bits(dtype, sign, payload):
    width = torch.finfo(dtype).bits
    mant = {torch.float16: 10, torch.bfloat16: 7, torch.float32: 23, torch.float64: 52}[dtype]
    exp = ((1 << (width - 1 - mant)) - 1) << mant
    quiet = 1 << (mant - 1)
    value = exp | quiet | payload
    if sign:
        value |= 1 << (width - 1)
    # as a signed integer of that width
    return value - (1 << width) if value >= 1 << (width - 1) else value


def bits_to(ints: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    int_type = {2: torch.int16, 4: torch.int32, 8: torch.int64}[torch.finfo(dtype).bits // 8]
    return ints.to(int_type).view(dtype)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_round_trip_bit_exact(dtype):
    x = edge_values(dtype)
    d = x.to("vulkan")
    assert d.dtype == dtype and d.device.type == "vulkan"
    assert_bitwise_equal(d.cpu(), x)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("n", [1, 3, 7, 33])
def test_round_trip_odd_lengths(dtype, n):
    # Lengths whose byte count is not a multiple of 4 take another upload path.
    x = edge_values(dtype).repeat(10)[:n].clone()
    assert_bitwise_equal(x.to("vulkan").cpu(), x)


@pytest.mark.parametrize("dtype", [torch.uint8, torch.float32, torch.float64], ids=str)
def test_round_trip_large_staged(dtype):
    # Bigger than the 64 KiB inline-upload limit: goes through staging memory.
    n = 70000 // torch.empty(0, dtype=dtype).element_size() + 13
    x = torch.arange(n).to(dtype)
    assert_bitwise_equal(x.to("vulkan").cpu(), x)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_device_to_device_same_dtype_bit_exact(dtype):
    x = edge_values(dtype)
    d = x.to("vulkan")
    e = torch.empty_like(d)
    e.copy_(d)
    assert e.data_ptr() != d.data_ptr()
    assert_bitwise_equal(e.cpu(), x)
    # and through a strided (kernel) copy
    f = torch.empty(x.numel(), 2, dtype=dtype, device="vulkan")[:, 1]
    f.copy_(d)
    assert_bitwise_equal(f.cpu(), x)


def test_complex64_round_trip():
    x = torch.tensor([1 + 2j, -0.0 - 0.0j, complex(math.inf, math.nan), 3.5 - 1e-30j], dtype=torch.complex64)
    d = x.to("vulkan")
    assert d.dtype == torch.complex64
    assert_bitwise_equal(d.cpu(), x)
    e = torch.empty_like(d)
    e.copy_(d)
    assert_bitwise_equal(e.cpu(), x)


def test_complex128_round_trip():
    x = torch.tensor([1 + 2j, -0.0 + 5j, 1e300 - 1e-300j], dtype=torch.complex128)
    assert_bitwise_equal(x.to("vulkan").cpu(), x)


def test_complex64_non_contiguous_device_copy():
    x = torch.tensor([[1 + 2j, 3 - 4j, 5j], [-1.5 + 0j, 7 + 7j, -0.0 - 2j]], dtype=torch.complex64)
    d = x.to("vulkan")
    t = d.t()
    out = torch.empty(3, 2, dtype=torch.complex64, device="vulkan")
    out.copy_(t)  # dense dst, transposed src: an element-wise copy
    assert_bitwise_equal(out.cpu(), x.t().contiguous())
    assert_bitwise_equal(t.cpu(), x.t())


# ---------------------------------------------------------------------------
# conversions


def conversion_source(src: torch.dtype, dst: torch.dtype) -> torch.Tensor:
    """Values whose conversion src -> dst is defined (no float -> int overflow)."""
    vals = [0.0, 1.0, 2.0, 3.75, 100.5, 127.0, 0.5]
    signed = lambda t: t.is_floating_point or t == torch.bool or t.is_signed  # noqa: E731
    if signed(src) and signed(dst):
        vals += [-1.0, -2.5, -128.0, -0.75]
    if dst.is_floating_point or dst == torch.bool:
        vals += [255.0, 1000.25, 65504.0, 40000.0]
    if src.is_floating_point and dst.is_floating_point:
        vals += [1 / 3, 0.1, 1e-6, 3e-8, 70000.0, 1e10, -1e-40, 1e-300, -0.0, math.inf, -math.inf, math.nan]
    if src.is_floating_point and dst == torch.bool:
        vals += [-0.0, 1e-30, math.nan, math.inf]
    x = torch.tensor(vals, dtype=torch.float64)
    if src.is_floating_point:
        return x.to(src)
    if src == torch.bool:
        return x != 0
    x = x.trunc()
    info = torch.iinfo(src)
    x = x[(x >= info.min) & (x <= info.max)].to(src)
    if not dst.is_floating_point and dst != torch.bool:
        # int -> narrower int wraps around, on the CPU as in C++
        extra = [300, -300, 256, 65537, info.max, info.min]
        x = torch.cat([x, torch.tensor([v for v in extra if info.min <= v <= info.max], dtype=src)])
    elif dst == torch.bool:
        x = torch.cat([x, torch.tensor([v for v in (256, 65536, info.min) if info.min <= v <= info.max], dtype=src)])
    elif src in (torch.int32, torch.int64):
        # rounding of wide integers to floats
        extra = [2**24 + 1, 2**31 - 1, 2**24 + 3, -(2**24) - 1]
        if src == torch.int64:
            extra += [2**53 + 1, 2**62 + 2**40 + 1]
        x = torch.cat([x, torch.tensor(extra, dtype=src)])
    return x


PAIRS = [(s, d) for s in ALL_DTYPES for d in ALL_DTYPES if s != d]


@pytest.mark.parametrize("src,dst", PAIRS, ids=[f"{s}->{d}".replace("torch.", "") for s, d in PAIRS])
def test_conversion_on_device_matches_cpu(src, dst):
    x = conversion_source(src, dst)
    expected = x.to(dst)
    d = x.to("vulkan")
    converted = d.to(dst)  # both on the device: a conversion kernel
    assert converted.device.type == "vulkan" and converted.dtype == dst
    assert_same_values(converted.cpu(), expected)


@pytest.mark.parametrize("src,dst", PAIRS[::7], ids=[f"{s}->{d}".replace("torch.", "") for s, d in PAIRS[::7]])
def test_conversion_host_to_device_matches_cpu(src, dst):
    x = conversion_source(src, dst)
    out = torch.empty(x.shape, dtype=dst, device="vulkan")
    out.copy_(x)
    assert_same_values(out.cpu(), x.to(dst))


@pytest.mark.parametrize("src,dst", PAIRS[3::7], ids=[f"{s}->{d}".replace("torch.", "") for s, d in PAIRS[3::7]])
def test_conversion_device_to_host_matches_cpu(src, dst):
    x = conversion_source(src, dst)
    out = torch.empty(x.shape, dtype=dst)
    out.copy_(x.to("vulkan"))
    assert_same_values(out, x.to(dst))


@pytest.mark.parametrize("dst", FLOAT_DTYPES, ids=str)
def test_conversion_non_contiguous(dst):
    x = torch.arange(24, dtype=torch.int32).reshape(4, 6) - 11
    d = x.to("vulkan")
    got = d.t()[::2].to(dst)
    assert_same_values(got.cpu(), x.t()[::2].to(dst))


@pytest.mark.parametrize("src", [torch.float32, torch.int64, torch.bool], ids=str)
def test_real_complex_conversion(src):
    x = torch.tensor([1, 0, 3], dtype=src)
    got = x.to("vulkan").to(torch.complex64).cpu()
    assert_bitwise_equal(got, x.to(torch.complex64))
