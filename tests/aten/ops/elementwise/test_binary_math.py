import pytest
import torch

from tests.opinfo import check_op, parametrize

OPS = ["atan2", "hypot", "copysign", "heaviside", "xlogy", "logaddexp", "logaddexp2", "gcd", "lcm"]


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


def _grid(xs, ys):
    x, y = torch.meshgrid(xs, ys, indexing="ij")
    return x.flatten(), y.flatten()


def _pow_inputs():
    f64 = torch.float64
    wide = _grid(torch.logspace(-300, 300, 601, dtype=f64), torch.linspace(-1, 1, 41, dtype=f64))
    # Large |y log x|, results up to 1e300: one-part e^(y log x) loses ~|y log x| ulp here.
    mid = _grid(torch.linspace(0.01, 20, 400, dtype=f64), torch.linspace(-200, 200, 101, dtype=f64))
    near_one = (1 + torch.linspace(-1e-6, 1e-6, 2001, dtype=f64), torch.full((2001,), 1e8, dtype=f64))
    return [torch.cat(parts) for parts in zip(wide, mid, near_one)]


def _random_pairs(scale=10.0):
    gen = torch.Generator().manual_seed(0)
    return [torch.randn(20000, generator=gen, dtype=torch.float64) * scale for _ in range(2)]


def _atan2_inputs():
    y, x = _random_pairs()
    wide = torch.logspace(-300, 300, 2001, dtype=torch.float64)  # quotients over/underflow
    return torch.cat([y, wide, -wide]), torch.cat([x, wide.flip(0), -wide])


# float64 math is written out in the shaders (common/math64.glsl): it must reach
# double precision, far inside the OpInfo tolerance, over wide ranges.
ACCURACY = {
    "pow": (torch.pow, _pow_inputs),
    "float_power": (torch.float_power, _pow_inputs),
    "atan2": (torch.atan2, _atan2_inputs),
    "xlogy": (torch.xlogy, lambda: [_random_pairs()[0], torch.logspace(-300, 300, 20000, dtype=torch.float64)]),
    "logaddexp": (torch.logaddexp, lambda: _random_pairs(100.0)),
    "logaddexp2": (torch.logaddexp2, lambda: _random_pairs(100.0)),
}


@pytest.mark.parametrize("name", ACCURACY)
def test_float64_accuracy(name, no_fallback):
    import torchvulkan

    if not torchvulkan.get_device_properties(0).float64:
        pytest.skip("no float64 on this device")
    fn, inputs = ACCURACY[name]
    a, b = inputs()
    expected = fn(a, b)
    actual = fn(a.to("vulkan"), b.to("vulkan")).cpu()
    # logaddexp's results near 0 come from cancellation, on the CPU too.
    torch.testing.assert_close(actual, expected, rtol=2e-14, atol=1e-14, equal_nan=True)


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int16, torch.int32, torch.int64], ids=str)
def test_gcd_lcm_signs_and_zeros(dtype, no_fallback):
    low = 0 if dtype == torch.uint8 else -60
    a, b = torch.meshgrid(torch.arange(low, 61, 7), torch.arange(low, 61, 5), indexing="ij")
    a, b = a.flatten().to(dtype), b.flatten().to(dtype)
    for fn in (torch.gcd, torch.lcm):
        assert torch.equal(fn(a.to("vulkan"), b.to("vulkan")).cpu(), fn(a, b))
