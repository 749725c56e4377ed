"""i0, special.i0e, special.i1, special.i1e, special.ndtri and polygamma on
the vulkan device (shaders/common/math_real.glsl), in strict mode against
the CPU's Cephes: both sides of the series/asymptotic switch at |x| = 30,
large arguments (I0(89) is finite in float32), the tails of ndtri down to
1e-300, polygamma's orders 0 to 6 on both sides of zero and at its poles,
the edges (0, 1, +-inf, NaN), float32 and float64, and OpInfo samples."""

import pytest
import torch

from tests.opinfo import check_op, parametrize

BESSEL = {"i0": torch.i0, "i0e": torch.special.i0e, "i1": torch.special.i1, "i1e": torch.special.i1e}


@pytest.mark.parametrize("name", list(BESSEL))
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_bessel(name, dtype, no_fallback):
    fn = BESSEL[name]
    x = torch.cat([torch.linspace(-40, 40, 801, dtype=dtype), torch.tensor([0.0, -0.0, 29.99, 30.01, 88.5, 700.0,
                                                                             float("inf"), -float("inf"),
                                                                             float("nan")], dtype=dtype)])
    if dtype == torch.float32:
        x = x[x.abs() != 700]
    rtol = 2e-6 if dtype == torch.float32 else 1e-12
    torch.testing.assert_close(fn(x.to("vulkan")).cpu(), fn(x), rtol=rtol, atol=1e-30, equal_nan=True)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_ndtri(dtype, no_fallback):
    tiny = 1e-300 if dtype == torch.float64 else 1e-37
    p = torch.cat([torch.linspace(0, 1, 1001, dtype=dtype), torch.tensor([tiny, 1e-20, 1e-10, 0.02425, 0.97575, 0.5,
                                                                           1 - 1e-7, -0.1, 1.1, float("nan")],
                                                                          dtype=dtype)])
    rtol = 1e-5 if dtype == torch.float32 else 1e-12
    torch.testing.assert_close(torch.special.ndtri(p.to("vulkan")).cpu(), torch.special.ndtri(p), rtol=rtol,
                               atol=1e-6 if dtype == torch.float32 else 1e-12, equal_nan=True)


@pytest.mark.parametrize("n", range(7))
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_polygamma(n, dtype, no_fallback):
    x = torch.cat([torch.linspace(-7.3, 40, 433, dtype=dtype), torch.tensor([0.0, -2.0, 1e-3, 0.5, 1e5, float("nan")],
                                                                             dtype=dtype)])
    expected, actual = torch.polygamma(n, x), torch.polygamma(n, x.to("vulkan")).cpu()
    rtol = 1e-4 if dtype == torch.float32 else 1e-9
    torch.testing.assert_close(actual, expected, rtol=rtol, atol=rtol * 1e-3, equal_nan=True)


@parametrize(["i0", "special.i0e", "special.i1", "special.i1e", "special.ndtri"] +
             [("polygamma", f"polygamma_n_{n}") for n in range(5)] + [("special.polygamma", "special_polygamma_n_0")],
             variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
