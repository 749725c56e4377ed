"""Edge values of the binary, scalar and ternary ops, compared with the CPU:
NaN, infinities, signed zeros, integer wrap-around and division by zero."""

import math

import pytest
import torch

INTS = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
FLOATS = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 7.0, -7.0, math.inf, -math.inf, math.nan]


def same(fn, *args, zero_ties=True, **kwargs):
    """fn on the CPU and on vulkan give the same values, NaNs and zero signs
    (those of a result from two zero operands only if `zero_ties`)."""
    expected = fn(*args, **kwargs)
    actual = fn(*[a.to("vulkan") if isinstance(a, torch.Tensor) else a for a in args], **kwargs)
    assert actual.device.type == "vulkan"
    actual = actual.cpu()
    torch.testing.assert_close(actual, expected, equal_nan=True, rtol=1e-6, atol=1e-7)
    if expected.is_floating_point():
        zeros = expected == 0
        if not zero_ties:
            zeros &= ~torch.stack([a == 0 for a in args if isinstance(a, torch.Tensor)]).all(0)
        bad = (actual[zeros].signbit() != expected[zeros].signbit()).nonzero().flatten()
        assert bad.numel() == 0, f"zero signs differ at {bad.tolist()} (of {args})"


def pairs(values, dtype):
    """Every (a, b) pair of `values` as two tensors."""
    a, b = zip(*[(x, y) for x in values for y in values])
    return torch.tensor(a, dtype=dtype), torch.tensor(b, dtype=dtype)


def f64_ok(dtype):
    import torchvulkan

    return dtype != torch.float64 or torchvulkan.get_device_properties(0).float64


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("fn", [
    lambda a, b: torch.div(a, b, rounding_mode="trunc"),
    lambda a, b: torch.div(a, b, rounding_mode="floor"),
    torch.floor_divide, torch.remainder, torch.fmod, torch.maximum, torch.minimum, torch.fmax,
    torch.fmin, torch.hypot, torch.copysign, torch.heaviside,
], ids=["div_trunc", "div_floor", "floor_divide", "remainder", "fmod", "maximum", "minimum", "fmax",
        "fmin", "hypot", "copysign", "heaviside"])
def test_float_special_values(fn, dtype, no_fallback):
    if not f64_ok(dtype):
        pytest.skip("no float64 on this device")
    # The CPU's maximum and minimum of 0 and -0 depend on its loop (scalar:
    # the first operand, vectorized: the second); test_maximum_of_zeros has them.
    same(fn, *pairs(SPECIAL, dtype), zero_ties=fn not in (torch.maximum, torch.minimum))


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32, torch.float64], ids=str)
@pytest.mark.parametrize("fn", [torch.fmod, torch.remainder], ids=["fmod", "remainder"])
def test_remainders_across_the_exponent_range(fn, dtype, no_fallback):
    # Exponent gaps past 128 (float) and 1024 (double), where GLSL's ldexp
    # is undefined. Against C's fmod (Python's math.fmod and %, in double):
    # the CPU's vectorized loop divides first and returns NaN there.
    if not f64_ok(dtype):
        pytest.skip("no float64 on this device")
    big = [1e30, -3.3e37, 7e20] if dtype != torch.float64 else [1e300, -3.3e307, 7e200]
    small = [3e-30, 1.7e-20, -2.9e-37] if dtype != torch.float64 else [3e-300, 1.7e-200, -2.9e-307]
    a, b = pairs(big + small + [1.5, -2.0], dtype)
    exact = math.fmod if fn is torch.fmod else (lambda x, y: x % y)
    expected = torch.tensor([exact(x, y) for x, y in zip(a.double().tolist(), b.double().tolist())],
                            dtype=torch.float64).to(dtype)
    actual = fn(a.to("vulkan"), b.to("vulkan")).cpu()
    torch.testing.assert_close(actual, expected, rtol=1e-6, atol=0)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_maximum_of_zeros(dtype, no_fallback):
    if not f64_ok(dtype):
        pytest.skip("no float64 on this device")
    # IEEE 754-2019: -0 < 0, whichever operand comes first.
    a = torch.tensor([0.0, -0.0, 0.0, -0.0], dtype=dtype, device="vulkan")
    b = torch.tensor([-0.0, 0.0, 0.0, -0.0], dtype=dtype, device="vulkan")
    assert torch.maximum(a, b).cpu().signbit().tolist() == [False, False, False, True]
    assert torch.minimum(a, b).cpu().signbit().tolist() == [True, True, False, True]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("fn", [torch.atan2, torch.pow, torch.xlogy, torch.logaddexp, torch.logaddexp2,
                                torch.float_power],
                         ids=["atan2", "pow", "xlogy", "logaddexp", "logaddexp2", "float_power"])
def test_exp_log_special_values(fn, dtype, no_fallback):
    if not f64_ok(dtype) or (fn is torch.float_power and not f64_ok(torch.float64)):
        pytest.skip("no float64 on this device")
    same(fn, *pairs(SPECIAL, dtype))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_pow_scalar_exponents(dtype, no_fallback):
    if not f64_ok(dtype):
        pytest.skip("no float64 on this device")
    x = torch.tensor(SPECIAL + [0.25, 3.0, -3.0], dtype=dtype)
    for e in [0, 1, 2, 3, -1, -2, 0.5, -0.5, 1.5, -1.5, math.inf, -math.inf, math.nan]:
        same(torch.pow, x, e)
    for base in [2.0, -2.0, 0.0, 1.0, math.nan]:
        same(torch.pow, base, x)


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("fn", [
    lambda a, b: torch.div(a, b, rounding_mode="trunc"),
    lambda a, b: torch.div(a, b, rounding_mode="floor"),
    torch.floor_divide, torch.remainder, torch.fmod,
], ids=["div_trunc", "div_floor", "floor_divide", "remainder", "fmod"])
def test_integer_division(fn, dtype, no_fallback):
    values = [0, 1, 2, 7, 100] + ([] if dtype == torch.uint8 else [-1, -2, -7, -100])
    a = torch.tensor(values, dtype=dtype)[:, None]
    b = torch.tensor([v for v in values if v != 0], dtype=dtype)
    same(fn, a, b)
    # Division by zero raises, as on the CPU, also through a broadcast or a scalar.
    for divisor in [torch.zeros(1, dtype=dtype), b.clone().index_fill_(0, torch.tensor([1]), 0), 0]:
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            fn(a, divisor)
        dev = divisor.to("vulkan") if isinstance(divisor, torch.Tensor) else divisor
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            fn(a.to("vulkan"), dev)


@pytest.mark.parametrize("dtype", INTS)
def test_integer_wraparound(dtype, no_fallback):
    info = torch.iinfo(dtype)
    a = torch.tensor([info.max, info.min, info.max - 1, 3], dtype=dtype)
    b = torch.tensor([1, 1, 3, info.max], dtype=dtype)
    same(torch.add, a, b)
    same(torch.sub, a, b)
    same(torch.mul, a, b)
    same(torch.pow, a, torch.tensor([2, 3, 5, 7], dtype=dtype))
    same(torch.bitwise_left_shift, a, torch.tensor([1, 3, 7, 1], dtype=dtype))
    same(torch.addcmul, a, a, b, value=3)


@pytest.mark.parametrize("dtype", INTS)
def test_shifts_past_width(dtype, no_fallback):
    signed = dtype != torch.uint8
    values = [0, 1, 5, info_max := torch.iinfo(dtype).max] + ([-1, -5, torch.iinfo(dtype).min] if signed else [])
    counts = [0, 1, 3, 7, 8, 15, 16, 31, 32, 63, 64, 100] + ([-1, -8] if signed else [])
    counts = [c for c in counts if torch.iinfo(dtype).min <= c <= info_max]
    a, b = torch.tensor(values, dtype=dtype), torch.tensor(counts, dtype=dtype)
    same(torch.bitwise_left_shift, a[:, None], b[None, :])
    same(torch.bitwise_right_shift, a[:, None], b[None, :])
    same(lambda x, y: x << y, a[:, None], b[None, :])
    same(lambda x, y: x >> y, a[:, None], b[None, :])
    same(lambda x: x << 2, a)
    same(lambda x: x >> 1, a)


def test_integer_pow_negative_exponent(no_fallback):
    a = torch.tensor([-3, -2, -1, 0, 1, 2, 3])
    same(torch.pow, a[:, None], torch.tensor([-3, -2, -1, 0, 1, 2])[None, :])
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed"):
        torch.pow(a.to("vulkan"), -1)


def test_clamp_nan(no_fallback):
    x = torch.tensor([-1.0, 0.5, 2.0, math.nan, -math.inf, math.inf])
    same(torch.clamp, x, 0.0, 1.0)
    same(torch.clamp, x, math.nan, 1.0)
    same(torch.clamp_min, x, math.nan)
    same(torch.clamp_max, x, math.nan)
    same(torch.clamp, x, torch.tensor([0.0, math.nan, 0.0, 0.0, 0.0, 0.0]), torch.ones(6))
    same(torch.clamp, x, torch.ones(6), torch.zeros(6))  # min > max gives max


def test_masked_fill_and_where(no_fallback):
    x = torch.arange(6, dtype=torch.uint8).reshape(2, 3)
    mask = torch.tensor([True, False, True])
    same(lambda t, m: t.clone().masked_fill_(m, 255), x, mask)
    same(lambda t, m: t.masked_fill(m, torch.tensor(7)), x, mask)
    with pytest.raises(RuntimeError):
        x.to("vulkan").masked_fill_(mask.to("vulkan"), 256)
    same(torch.where, mask, x, torch.tensor(9, dtype=torch.uint8))
    same(lambda m, t: torch.where(m, t, 2.5), mask, x)
    same(lambda m, t: torch.where(m, t, torch.tensor(-1)), mask, x)
