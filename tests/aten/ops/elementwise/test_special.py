"""torch.special on the vulkan device, in strict mode against the CPU's
Cephes, float32 and float64, with the edges (0, 1, +-inf, NaN) and OpInfo
samples:
- i0, special.i0e, special.i1, special.i1e, special.ndtri and polygamma
  (shaders/common/math_real.glsl): both sides of the series/asymptotic
  switch at |x| = 30, large arguments (I0(89) is finite in float32), the
  tails of ndtri down to 1e-300, polygamma's orders 0 to 6 on both sides of
  zero and at its poles;
- special.cpp's functions (shaders/elementwise/special_functions.glsl): J
  and Y on both sides of the recurrence/asymptotic switch, K from 1e-6 to
  700, erfcx and log_ndtr far into both tails, the incomplete gamma
  functions on both sides of the series/fraction switch, zeta for real
  orders, the orthogonal polynomials across the degrees where the CPU
  switches to closed forms, the reparameterized gradients of Gamma and
  Dirichlet samples (_standard_gamma_grad, _dirichlet_grad), and Airy's Ai
  against mpmath across its three regimes."""

import math

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
    # 16-bit inputs are computed in float32 here, as on CUDA: compared with
    # the CPU's float32 result, rounded. The CPU's own float16 loop strays
    # (special.i0e: 2 of the float16 values in [-12, 12] off float64's
    # rounding, this device none; H100 and lavapipe, 2026-12-05).
    check_op(op, dtype, variant, upcast_16_bit=True)


INF, NAN = float("inf"), float("nan")
EDGES = [0.0, -0.0, 1e-6, INF, -INF, NAN]


def grid(*parts, dtype):
    return torch.cat([torch.as_tensor(p, dtype=dtype).flatten() for p in parts])


def assert_matches_cpu(fn, *args, rtol, atol, upcast=True):
    """float32 against the CPU's float64, rounded (upcast): the CPU's own
    float32 Bessel functions lose digits that these keep."""
    if upcast:
        expected = fn(*[a.double() if a.dtype == torch.float32 else a for a in args]).to(args[0].dtype)
    else:
        expected = fn(*args)
    actual = fn(*[a.to("vulkan") for a in args]).cpu()
    torch.testing.assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=True)


F32 = dict(rtol=2e-5, atol=2e-6)
F64 = dict(rtol=1e-10, atol=1e-13)
UNARY = {
    "modified_bessel_k0": (torch.special.modified_bessel_k0, [torch.linspace(-1, 80, 406), torch.logspace(-6, 2, 40)]),
    "modified_bessel_k1": (torch.special.modified_bessel_k1, [torch.linspace(-1, 80, 406), torch.logspace(-6, 2, 40)]),
    "scaled_modified_bessel_k0": (torch.special.scaled_modified_bessel_k0,
                                  [torch.linspace(-1, 80, 406), torch.logspace(-6, 2.8, 40)]),
    "scaled_modified_bessel_k1": (torch.special.scaled_modified_bessel_k1,
                                  [torch.linspace(-1, 80, 406), torch.logspace(-6, 2.8, 40)]),
    "modified_bessel_i0": (torch.special.modified_bessel_i0, [torch.linspace(-80, 80, 321)]),
    "modified_bessel_i1": (torch.special.modified_bessel_i1, [torch.linspace(-80, 80, 321)]),
    "spherical_bessel_j0": (torch.special.spherical_bessel_j0, [torch.linspace(-50, 50, 1001), 0.49, 0.51, 1e-3]),
    "entr": (torch.special.entr, [torch.linspace(-2, 10, 121), 1e-30]),
    "erfcx": (torch.special.erfcx, [torch.linspace(-9, 60, 691), 1.99, 2.01, 1e10]),
    "log_ndtr": (torch.special.log_ndtr, [torch.linspace(-36, 10, 461), -0.99, -1.01, 8.3]),
}


@pytest.mark.parametrize("name", list(UNARY))
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_unary_functions(name, dtype, no_fallback):
    fn, points = UNARY[name]
    assert_matches_cpu(fn, grid(*points, EDGES, dtype=dtype), **(F32 if dtype == torch.float32 else F64))


@pytest.mark.parametrize("name", ["j0", "j1", "y0", "y1"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_bessel_jy(name, dtype, no_fallback):
    """Against mpmath (PyTorch installs it, through sympy) where the
    function is finite: the CPU's float64 J and Y are off by up to 7e-7 on
    [-40, 40] (by 4e-3 relative at 1e5), these by 1e-15. The CPU's values
    at the edges: J(0), Y(0) = -inf, NaN for Y(x < 0) and at +-inf."""
    mpmath = pytest.importorskip("mpmath")
    fn = getattr(torch.special, f"bessel_{name}")
    reference = {"j": mpmath.besselj, "y": mpmath.bessely}[name[0]]
    x = grid(torch.linspace(-40, 40, 801), 11.99, 12.01, 24.99, 25.01, 1e3, 12345.5, 1e5, -1e5, EDGES, dtype=dtype)
    expected = fn(x.double())
    finite = expected.isfinite() & (x != 0)
    expected[finite] = torch.tensor([float(reference(int(name[1]), v)) for v in x[finite].tolist()],
                                    dtype=torch.float64)
    actual = fn(x.to("vulkan")).cpu().double()
    tol = dict(rtol=1e-6, atol=5e-7) if dtype == torch.float32 else dict(rtol=1e-14, atol=2e-15)
    torch.testing.assert_close(actual, expected, **tol, equal_nan=True)


def test_far_tails_in_double(no_fallback):
    x = torch.tensor([-30.0, 1e5, 1e150], dtype=torch.float64)
    assert_matches_cpu(torch.special.erfcx, x, **F64)
    assert_matches_cpu(torch.special.log_ndtr, -x.abs(), **F64)
    assert_matches_cpu(torch.special.scaled_modified_bessel_k1, torch.tensor([1e4, 1e8], dtype=torch.float64), **F64)


def pairs(a, b, dtype):
    a, b = grid(*a, dtype=dtype), grid(*b, dtype=dtype)
    return a[:, None].expand(-1, len(b)).flatten(), b[None, :].expand(len(a), -1).flatten()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_xlog1py(dtype, no_fallback):
    x, y = pairs([[-2.0, 0.0, -0.0, 1.5, NAN, INF]], [[-1.0, -0.5, 0.0, 1e-8, 3.0, INF, NAN]], dtype)
    assert_matches_cpu(torch.special.xlog1py, x, y, **(F32 if dtype == torch.float32 else F64))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_zeta(dtype, no_fallback):
    s, q = pairs([[0.5, 1.0, 1.5, 2.0, 3.0, 3.7, 10.0, 31.5, NAN]],
                 [[-3.0, -2.5, -0.5, 0.0, 1e-3, 0.5, 1.0, 2.5, 15.9, 16.1, 1e3, NAN]], dtype)
    tol = dict(rtol=1e-5, atol=1e-30) if dtype == torch.float32 else dict(rtol=1e-11, atol=1e-300)
    assert_matches_cpu(torch.special.zeta, s, q, **tol)


@pytest.mark.parametrize("upper", [False, True], ids=["gammainc", "gammaincc"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_incomplete_gamma(upper, dtype, no_fallback):
    """The CPU's values at the edges (zeros, infinities, NaN, negative
    arguments); elsewhere mpmath's, from which the CPU's float64 strays by up
    to 3e-10 where a and x are near each other and large."""
    mpmath = pytest.importorskip("mpmath")
    fn = torch.special.gammaincc if upper else torch.special.gammainc
    a, x = pairs([torch.logspace(-3, 3, 13), [0.0, 2.0, 2.5, 9.0, 31.6, -1.0, INF, NAN]],
                 [torch.logspace(-3, 3, 13), [0.0, 1.0, 3.4, 3.6, 10.0, 11.0, 28.5, 34.8, -1.0, INF, NAN]], dtype)
    expected = fn(a.double(), x.double())
    inside = (a > 0) & (x > 0) & a.isfinite() & x.isfinite()
    def reference(p, q):
        limits = (q, mpmath.inf) if upper else (0, q)
        return float(mpmath.gammainc(p, *limits, regularized=True))
    expected[inside] = torch.tensor([reference(p, q) for p, q in zip(a[inside].tolist(), x[inside].tolist())],
                                    dtype=torch.float64)
    actual = fn(a.to("vulkan"), x.to("vulkan")).cpu().double()
    tol = dict(rtol=5e-5, atol=2e-6) if dtype == torch.float32 else dict(rtol=1e-12, atol=1e-14)
    torch.testing.assert_close(actual, expected, **tol, equal_nan=True)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_standard_gamma_grad(dtype, no_fallback):
    """d sample / d alpha for Gamma samples (the backward of Gamma's rsample):
    against mpmath's derivative of the regularized incomplete gamma function,
    since the CPU's rational fits are up to 3e-4 off; and the CPU within
    that. Samples span alpha 1e-3 to 1e4 on both sides of the series/fraction
    switch, the smallest of them subnormal in float32."""
    mpmath = pytest.importorskip("mpmath")
    torch.manual_seed(0)
    alpha = torch.logspace(-3, 4, 36, dtype=torch.float64).repeat_interleave(2)
    x = torch._standard_gamma(alpha).to(dtype)
    alpha = alpha.to(dtype)
    inside = x > 0
    assert inside.sum() > 60

    def reference(a, q):
        a, q = mpmath.mpf(a), mpmath.mpf(q)
        derivative = mpmath.diff(lambda s: mpmath.gammainc(s, 0, q, regularized=True), a)
        return float(-derivative / (q ** (a - 1) * mpmath.exp(-q) / mpmath.gamma(a)))

    with mpmath.workdps(30):
        expected = torch.tensor([reference(a, q) for a, q in zip(alpha[inside].tolist(), x[inside].tolist())],
                                dtype=torch.float64)
    actual = torch._standard_gamma_grad(alpha.to("vulkan"), x.to("vulkan")).cpu()
    assert actual.dtype == dtype
    tol = dict(rtol=1e-5, atol=0) if dtype == torch.float32 else dict(rtol=1e-11, atol=0)
    torch.testing.assert_close(actual[inside].double(), expected, **tol)
    torch.testing.assert_close(actual, torch._standard_gamma_grad(alpha, x), rtol=1e-3, atol=0)


def test_standard_gamma_grad_edges(no_fallback):
    # Zero and negative samples give 0, non-positive or non-finite alpha NaN, as on the CPU.
    alpha = torch.tensor([1.0, 0.5, 2.0, 0.0, -1.0, NAN, 1.0, INF, 1.0, 1e-3], dtype=torch.float64)
    x = torch.tensor([0.0, -0.0, -3.0, 1.0, 1.0, 1.0, NAN, 1.0, INF, 1e-300], dtype=torch.float64)
    actual = torch._standard_gamma_grad(alpha.to("vulkan"), x.to("vulkan")).cpu()
    torch.testing.assert_close(actual, torch._standard_gamma_grad(alpha, x), rtol=1e-6, atol=0, equal_nan=True)
    with pytest.raises(RuntimeError, match="not implemented for 'Half'"):
        torch._standard_gamma_grad(alpha.half().to("vulkan"), x.half().to("vulkan"))


def test_gamma_rsample_backward(no_fallback):
    # Gamma.rsample's gradient reaches alpha through _standard_gamma_grad, natively.
    concentration = torch.tensor([0.3, 1.0, 4.0, 50.0], device="vulkan", requires_grad=True)
    sample = torch.distributions.Gamma(concentration, torch.ones(4, device="vulkan")).rsample((3,))
    sample.sum().backward()
    expected = torch._standard_gamma_grad(concentration.detach().cpu().expand(3, 4), sample.detach().cpu()).sum(0)
    torch.testing.assert_close(concentration.grad.cpu(), expected, rtol=1e-3, atol=1e-6)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_dirichlet_grad(dtype, no_fallback):
    """-(dI_x(a, b) / da) / p(x; a, b) / (1 - x) for Beta samples x, b =
    total - a (the factor of Dirichlet's and Beta's rsample backward):
    against mpmath, and the CPU within its fits' 5e-4. a and b from 0.03 to
    300, on both sides of the continued fraction's switch."""
    mpmath = pytest.importorskip("mpmath")
    torch.manual_seed(0)
    a = 10 ** (torch.rand(48, dtype=torch.float64) * 4 - 1.5)
    b = 10 ** (torch.rand(48, dtype=torch.float64) * 4 - 1.5)
    x = torch.distributions.Beta(a, b).sample()
    x, a, total = x.to(dtype), a.to(dtype), (a + b).to(dtype)
    inside = (x > 0) & (x < 1)
    assert inside.sum() > 40

    def reference(q, p, t):
        q, p, r = mpmath.mpf(q), mpmath.mpf(p), mpmath.mpf(t) - mpmath.mpf(p)
        derivative = mpmath.diff(lambda s: mpmath.betainc(s, r, 0, q, regularized=True), p)
        return float(-derivative / (q ** (p - 1) * (1 - q) ** (r - 1) / mpmath.beta(p, r)) / (1 - q))

    with mpmath.workdps(30):
        expected = torch.tensor([reference(*v) for v in zip(x[inside].tolist(), a[inside].tolist(),
                                                              total[inside].tolist())], dtype=torch.float64)
    actual = torch._dirichlet_grad(x.to("vulkan"), a.to("vulkan"), total.to("vulkan")).cpu()
    assert actual.dtype == dtype
    tol = dict(rtol=2e-4, atol=0) if dtype == torch.float32 else dict(rtol=1e-10, atol=0)
    torch.testing.assert_close(actual[inside].double(), expected, **tol)
    torch.testing.assert_close(actual, torch._dirichlet_grad(x, a, total), rtol=1.5e-3, atol=0)


def test_dirichlet_grad_edges(no_fallback):
    # The limits at x = 0 and 1, as the CPU; outside the domain NaN (the
    # CPU's fits return arbitrary numbers there).
    x = torch.tensor([0.0, 1.0, 1.0, 1e-300, 0.5, 0.5, 0.5, 1.5, -0.5, NAN, 0.5], dtype=torch.float64)
    a = torch.tensor([1.0, 1.0, 4.0, 0.5, 0.0, -1.0, 2.0, 1.0, 1.0, 1.0, 3.0], dtype=torch.float64)
    total = torch.tensor([3.0, 3.0, 4.5, 1.0, 3.0, 3.0, 1.0, 3.0, 3.0, 3.0, INF], dtype=torch.float64)
    actual = torch._dirichlet_grad(x.to("vulkan"), a.to("vulkan"), total.to("vulkan")).cpu()
    torch.testing.assert_close(actual[:4], torch._dirichlet_grad(x, a, total)[:4], rtol=1e-6, atol=0)
    assert actual[4:].isnan().all()


def test_dirichlet_and_beta_rsample_backward(no_fallback):
    # Dirichlet's backward: _dirichlet_grad(x, alpha, total) * (g - sum(x g)), natively.
    concentration = torch.tensor([[0.4, 1.5, 3.0], [2.0, 2.0, 8.0]], device="vulkan", requires_grad=True)
    sample = torch.distributions.Dirichlet(concentration).rsample()
    weight = torch.tensor([[1.0, -2.0, 0.5], [0.3, 0.0, -1.0]])
    (sample * weight.to("vulkan")).sum().backward()
    c, x = concentration.detach().cpu(), sample.detach().cpu()
    factor = torch._dirichlet_grad(x, c, c.sum(-1, True).expand_as(c))
    torch.testing.assert_close(concentration.grad.cpu(), factor * (weight - (x * weight).sum(-1, True)),
                               rtol=2e-3, atol=1e-6)
    a = torch.tensor([0.5, 2.0], device="vulkan", requires_grad=True)
    torch.distributions.Beta(a, torch.tensor([1.5, 3.0], device="vulkan")).rsample().sum().backward()
    assert a.grad.device.type == "vulkan" and a.grad.isfinite().all()


DEGREES = [-1, 0, 1, 2, 5, 6, 7, 8, 9, 12, 20, 2.7]
POLYNOMIALS = {
    "chebyshev_polynomial_t": [torch.linspace(-1.5, 1.5, 61), -1.0, 1.0],
    "chebyshev_polynomial_u": [torch.linspace(-1.5, 1.5, 61), -1.0, 1.0],
    "chebyshev_polynomial_v": [torch.linspace(-1.5, 1.5, 61), -1.0, 1.0],
    "chebyshev_polynomial_w": [torch.linspace(-1.5, 1.5, 61), -1.0, 1.0],
    "shifted_chebyshev_polynomial_t": [torch.linspace(-0.25, 1.25, 61), 0.0, 1.0],
    "shifted_chebyshev_polynomial_u": [torch.linspace(-0.25, 1.25, 61), 0.0, 1.0],
    "shifted_chebyshev_polynomial_v": [torch.linspace(-0.25, 1.25, 61), 0.0, 1.0],
    "shifted_chebyshev_polynomial_w": [torch.linspace(-0.25, 1.25, 61), 0.0, 1.0],
    "hermite_polynomial_h": [torch.linspace(-3, 3, 61)],
    "hermite_polynomial_he": [torch.linspace(-3, 3, 61)],
    "laguerre_polynomial_l": [torch.linspace(-3, 10, 66)],
    "legendre_polynomial_p": [torch.linspace(-1.5, 1.5, 61), -1.0, 1.0],
}


@pytest.mark.parametrize("name", list(POLYNOMIALS))
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_polynomials(name, dtype, no_fallback):
    x, n = pairs([*POLYNOMIALS[name], [NAN]], [DEGREES], dtype)
    # float32: cos((n + 1/2) acos x) / cos(acos(x) / 2) near x = -1 turns an ulp of acos
    # into ~1e-4 (n = 20), on the CPU as here.
    tol = dict(rtol=5e-4, atol=1e-4) if dtype == torch.float32 else dict(rtol=1e-10, atol=1e-10)
    # In float32 as the CPU: the trigonometric forms amplify rounding near the
    # ends of [-1, 1] alike.
    assert_matches_cpu(getattr(torch.special, name), x, n, **tol, upcast=False)
    # A scalar degree (the n_scalar overload) broadcasts like the tensor.
    xs = grid(*POLYNOMIALS[name], dtype=dtype)
    assert_matches_cpu(lambda x: getattr(torch.special, name)(x, 7), xs, **tol, upcast=False)


def test_half_is_refused_as_on_the_cpu(no_fallback):
    x = torch.ones(3, dtype=torch.float16)
    with pytest.raises(RuntimeError, match="not implemented for 'Half'"):
        torch.special.bessel_j0(x)
    with pytest.raises(RuntimeError, match="not implemented for 'Half'"):
        torch.special.bessel_j0(x.to("vulkan"))


SPECIAL_OPINFOS = ([f"special.{name}" for name in UNARY] + ["special.xlog1py", "special.zeta", "igamma", "igammac"] +
                   [f"special.{name}" for name in POLYNOMIALS])


@parametrize(SPECIAL_OPINFOS, variants=["functional", "out"])
def test_special_opinfo(op, dtype, variant, no_fallback):
    # The polynomials' recurrences cancel: an ulp of rounding difference
    # (the shader compiler may fuse x * q - k * p) came out as 3e-5 relative.
    tolerances = {torch.float32: (1e-4, 1e-5)} if "polynomial" in op.name else None
    check_op(op, dtype, variant, tolerances)


@parametrize(["special.airy_ai"], variants=["functional"])
def test_airy_ai_opinfo(op, dtype, variant, no_fallback):
    # The CPU's float64 Ai strays up to 6e-6 between -7 and -2 (against
    # mpmath, where this device's is within 2e-15): float64 is held to the
    # CPU at that, and to mpmath tightly below.
    check_op(op, dtype, variant, tolerances={torch.float64: (0, 1e-5)})


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_airy_ai_against_mpmath(dtype, no_fallback):
    # Each regime of special_functions.glsl's airy_ai and its seams (2, -7,
    # -10), against mpmath, relative to the local size of Ai (its amplitude
    # 1 / (sqrt(pi) |x|^(1/4)) where it oscillates). The CPU's float64 strays
    # 6e-6 between -7 and -2, so mpmath is the reference.
    mpmath = pytest.importorskip("mpmath")
    x = torch.cat([torch.linspace(-60, 30, 1801, dtype=torch.float64),
                   torch.tensor([0.0, -0.0, 1e-30, 2.0, 2.0 + 1e-9, -7.0, -10.0, -10.0 - 1e-9, 100.0])]).to(dtype)
    exact = torch.tensor([float(mpmath.airyai(v)) for v in x.tolist()], dtype=torch.float64)
    size = torch.where(x < 0, 1 / (math.sqrt(math.pi) * x.double().abs().clamp(min=1) ** 0.25), exact.abs())
    actual = torch.special.airy_ai(x.to("vulkan")).cpu().double()
    bound = 1e-12 if dtype == torch.float64 else 4e-6
    near = (x.double().abs() <= 10) & (size > 1e-30)  # float32's phase of zeta loses digits further out
    far = (x.double() < -10)
    assert ((actual - exact).abs() / size)[near].max() <= bound
    assert ((actual - exact).abs() / size)[far].max() <= (1e-12 if dtype == torch.float64 else 1e-4)
    special = torch.tensor([float("nan"), float("inf"), -float("inf")], dtype=dtype)
    assert torch.special.airy_ai(special.to("vulkan")).cpu().isnan().all()  # as the CPU
