"""Edge values of the unary ops (NaN, +-inf, -0.0, poles, integer wrap) and the
accuracy of the float64 math written out in shaders/common/math64.glsl."""

import math

import pytest
import torch

import torchvulkan

FLOAT_OPS = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal",
             "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
             "atanh", "sigmoid", "logit", "erf", "erfc", "erfinv", "lgamma", "digamma", "sinc", "neg",
             "abs", "sign", "sgn", "floor", "ceil", "round", "trunc", "frac", "nan_to_num", "isnan",
             "isinf", "isfinite", "isposinf", "isneginf", "signbit"]
EDGES = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 1e-30, -1e-30,
         1e-8, -1e-8, 1e30, -1e30, 88.0, -88.0, 100.0, -100.0, 1.5, 2.5, -2.5, 0.9999, -0.9999, 1.0001]


def _float64():
    return torchvulkan.get_device_properties(0).float64


def _dtypes():
    return [torch.float16, torch.bfloat16, torch.float32] + ([torch.float64] if _float64() else [])


@pytest.mark.parametrize("name", FLOAT_OPS)
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64], ids=str)
def test_edge_values(name, dtype, no_fallback):
    if dtype not in _dtypes():
        pytest.skip("no float64 on this device")
    x = torch.tensor(EDGES, dtype=dtype)
    expected = getattr(torch, name)(x)
    actual = getattr(torch, name)(x.to("vulkan")).cpu()
    rtol, atol = {torch.float16: (1e-3, 1e-3), torch.bfloat16: (1.6e-2, 1e-2)}.get(dtype, (1e-5, 1e-6))
    torch.testing.assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=True)
    if expected.dtype == torch.bool:
        return
    # Zero results carry the sign C gives them (sin(-0.0) is -0.0, ...).
    zero = (expected == 0) & (actual == 0)
    assert torch.equal(actual[zero].signbit(), expected[zero].signbit()), name


def test_sign_of_zero_and_nan(no_fallback):
    x = torch.tensor([-0.0, 0.0, math.nan, -3.0, 3.0], device="vulkan")
    assert torch.sign(x).cpu().tolist() == [0.0, 0.0, 0.0, -1.0, 1.0]
    assert torch.signbit(x).cpu().tolist() == [True, False, False, True, False]


def test_round_half_to_even(no_fallback):
    x = torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1234.5678])
    assert torch.equal(torch.round(x.to("vulkan")).cpu(), torch.round(x))
    for decimals in (-2, 1, 2, 3):
        torch.testing.assert_close(torch.round(x.to("vulkan"), decimals=decimals).cpu(),
                                   torch.round(x, decimals=decimals))


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64], ids=str)
def test_integer_wrap(dtype, no_fallback):
    info = torch.iinfo(dtype)
    x = torch.tensor([info.min, info.min + 1, -1 if info.min < 0 else 0, 0, 1, info.max], dtype=dtype)
    for name in ("neg", "abs", "sign", "floor", "ceil", "round", "trunc", "signbit", "isnan",
                 "isinf", "isposinf", "isneginf", "nan_to_num"):
        if name == "neg" and dtype == torch.uint8:
            continue
        assert torch.equal(getattr(torch, name)(x.to("vulkan")).cpu(), getattr(torch, name)(x)), name


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32], ids=str)
def test_nan_to_num_defaults_and_values(dtype, no_fallback):
    x = torch.tensor([math.nan, math.inf, -math.inf, 1.5], dtype=dtype)
    assert torch.equal(torch.nan_to_num(x.to("vulkan")).cpu(), torch.nan_to_num(x))
    args = dict(nan=2.0, posinf=1e10, neginf=-7.0)
    assert torch.equal(torch.nan_to_num(x.to("vulkan"), **args).cpu(), torch.nan_to_num(x, **args))


@pytest.mark.parametrize("eps", [None, -1.0, 0.0, 1e-6, 0.25])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32], ids=str)
def test_logit_eps(eps, dtype, no_fallback):
    x = torch.tensor([0.0, 1e-7, 0.1, 0.5, 0.9, 1.0, -0.5, 1.5, math.nan], dtype=dtype)
    torch.testing.assert_close(torch.logit(x.to("vulkan"), eps).cpu(), torch.logit(x, eps),
                               rtol=1.6e-2, atol=1e-3, equal_nan=True)


def test_lgamma_digamma_poles(no_fallback):
    x = torch.tensor([0.0, -0.0, -1.0, -2.0, -2.5, -1e-5, math.inf, -math.inf])
    for name in ("lgamma", "digamma"):
        torch.testing.assert_close(getattr(torch, name)(x.to("vulkan")).cpu(), getattr(torch, name)(x),
                                   equal_nan=True)


def test_integer_inputs_promote(no_fallback):
    x = torch.tensor([-3, 0, 2, 5], dtype=torch.int32)
    for name in ("exp", "sin", "lgamma", "atan", "sigmoid", "logit", "erfinv", "sinc"):
        actual = getattr(torch, name)(x.to("vulkan"))
        assert actual.dtype == torch.float32, name
        torch.testing.assert_close(actual.cpu(), getattr(torch, name)(x), equal_nan=True)
    with pytest.raises(RuntimeError):
        torch.exp_(x.to("vulkan"))


# float64 math is written out in the shaders: it must reach double precision,
# far inside the OpInfo tolerance, over wide ranges.
ACCURACY = {
    "exp": (-700, 700), "exp2": (-1000, 1000), "expm1": (-40, 40), "log": (1e-300, 1e300),
    "log2": (1e-10, 1e10), "log10": (1e-10, 1e10), "log1p": (-0.999, 1e6), "sin": (-1e5, 1e5),
    "cos": (-1e5, 1e5), "tan": (-100, 100), "atan": (-1e6, 1e6), "asin": (-1, 1), "acos": (-1, 1),
    "sinh": (-700, 700), "cosh": (-700, 700), "tanh": (-30, 30), "asinh": (-1e10, 1e10),
    "acosh": (1, 1e10), "atanh": (-1, 1), "sigmoid": (-700, 700), "erf": (-7, 7), "erfc": (-7, 27),
    "erfinv": (-1, 1), "lgamma": (-50, 200), "digamma": (-50, 200), "sinc": (-100, 100),
}


@pytest.mark.parametrize("name", sorted(ACCURACY))
def test_float64_accuracy(name, no_fallback):
    if not _float64():
        pytest.skip("no float64 on this device")
    lo, hi = ACCURACY[name]
    if lo > 0 and hi / lo > 1e6:
        x = torch.logspace(math.log10(lo), math.log10(hi), 4001, dtype=torch.float64)
    else:
        x = torch.linspace(lo, hi, 4001, dtype=torch.float64)
    small = torch.linspace(-1e-3, 1e-3, 201, dtype=torch.float64)
    x = torch.cat([x, small, small * 1e-10])
    expected = getattr(torch, name)(x)
    actual = getattr(torch, name)(x.to("vulkan")).cpu()
    # Near zeros of the function a relative bound is meaningless; lgamma and
    # digamma reach theirs by cancellation (lgamma(1) = lgamma(9) - log(8!)).
    atol = 1e-14 if name in ("lgamma", "digamma") else 1e-15
    torch.testing.assert_close(actual, expected, rtol=2e-14, atol=atol, equal_nan=True)


@pytest.mark.parametrize("name", ["sin", "cos", "tan"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_trig_large_arguments(name, dtype, no_fallback):
    """Past the Cody-Waite range the reduction is Payne-Hanek: still exact."""
    if dtype == torch.float64 and not _float64():
        pytest.skip("no float64 on this device")
    top = 38 if dtype == torch.float32 else 307
    x = torch.logspace(3, top, 2001, dtype=torch.float64).to(dtype)
    x = torch.cat([x, -x])
    actual = getattr(torch, name)(x.to("vulkan")).cpu().double()
    fn = getattr(math, name)
    expected = torch.tensor([fn(v) for v in x.double().tolist()], dtype=torch.float64)
    rtol, atol = (2e-6, 2e-7) if dtype == torch.float32 else (1e-14, 1e-15)
    torch.testing.assert_close(actual, expected, rtol=rtol, atol=atol)
