// torch.special's Bessel, error-function and gamma-function relatives, and
// the orthogonal polynomials, for the real type R (special_ops.glsl sets it
// to the variant's compute type, R_DOUBLE for float64). Each method is
// chosen for accuracy over the whole range, one code path per regime, not
// to mirror the CPU's (Cephes) rational fits. The tests hold them to the
// CPU's results, or to mpmath's where the CPU's float64 loses digits (J, Y,
// the incomplete gamma functions).

// --- Bessel functions of the first and second kind, orders 0 and 1 ---------

// Below JY_ASYMPTOTIC, J and Y come from the backward recurrence, from it
// on from Hankel's asymptotic expansion (its smallest term, near k = 2x, is
// about e^(-2x): below 1e-21 from x = 25 in double, 4e-11 from 12 in float).
// The recurrence starts JY_EXTRA orders past x, where J_n is below R's
// precision.
#ifdef R_DOUBLE
#define JY_ASYMPTOTIC C(25.0LF)
#define JY_EXTRA C(40.0LF)
#else
#define JY_ASYMPTOTIC C(12.0LF)
#define JY_EXTRA C(20.0LF)
#endif

// J0, J1, Y0, Y1 at 0 < x < JY_ASYMPTOTIC by Miller's algorithm: the
// recurrence J_(n-1) = (2n / x) J_n - J_(n+1), run downwards from J_N = tiny
// (N = x + JY_EXTRA), is stable, and
// J0 + 2 (J2 + J4 + ...) = 1 normalizes it. Neumann's series give Y from
// the same sequence:
//   Y0 = (2/pi) ((log(x/2) + gamma) J0 - 2 S0),   S0 = sum_k (-1)^k J_2k / k
//   Y1 = -(2/pi) (J0 / x - (log(x/2) + gamma) J1) + (2/pi) S1,
//        S1 = sum_k (-1)^k (J_(2k-1) - J_(2k+1)) / k   (Y1 = -Y0')
// All sums are of bounded terms, so the results are accurate to a few ulp of
// max(1, |f|) (absolutely near the zeros).
void bessel_jy_recurrence(R x, out R j0, out R j1, out R y0, out R y1) {
  int top = 2 * int(ceil((x + JY_EXTRA) / C(2.0LF)));
  R next = C(0.0LF), cur = C(1.0e-20LF);  // J_(n+1), J_n for n = top
  R norm = C(0.0LF), s0 = C(0.0LF), s1 = C(0.0LF);
  for (int n = top; n >= 1; --n) {
    // J_n's share of the sums.
    if (n % 2 == 0) {
      R sign = (n / 2) % 2 == 0 ? C(1.0LF) : C(-1.0LF);
      norm += C(2.0LF) * cur;
      s0 += sign * cur / R(n / 2);
    } else {
      int ka = (n + 1) / 2, kb = (n - 1) / 2;  // J_n is J_(2ka-1) and J_(2kb+1)
      s1 += (ka % 2 == 0 ? cur : -cur) / R(ka);
      if (kb >= 1) s1 -= (kb % 2 == 0 ? cur : -cur) / R(kb);
    }
    R prev = R(2 * n) / x * cur - next;
    next = cur;
    cur = prev;
    if (abs(cur) > C(1.0e10LF)) {  // rescale everything alike before overflow
      cur *= C(1.0e-10LF);
      next *= C(1.0e-10LF);
      norm *= C(1.0e-10LF);
      s0 *= C(1.0e-10LF);
      s1 *= C(1.0e-10LF);
    }
  }
  R scale = C(1.0LF) / (cur + norm);
  j0 = cur * scale;
  j1 = next * scale;
  s0 *= scale;
  s1 *= scale;
  const R two_over_pi = C(0.636619772367581343075535053490057448LF);
  R l = m_log(x / C(2.0LF)) + C(0.577215664901532860606512090082402431LF);
  y0 = two_over_pi * (l * j0 - C(2.0LF) * s0);
  y1 = -two_over_pi * (j0 / x - l * j1) + two_over_pi * s1;
}

// J_nu and Y_nu (nu = 0, 1) at x >= JY_ASYMPTOTIC: sqrt(2 / (pi x)) times
// (P cos chi - Q sin chi) and (P sin chi + Q cos chi), chi = x - (nu/2 +
// 1/4) pi, P and Q the even and odd terms of sum_k (-1)^floor(k/2) a_k / x^k,
// a_k = a_(k-1) (4 nu^2 - (2k - 1)^2) / (8k). cos chi and sin chi are formed
// from cos x and sin x, so no rounded multiple of pi is subtracted from x.
void bessel_jy_asymptotic(R x, int nu, out R j, out R y) {
  R mu = R(4 * nu * nu), p = C(0.0LF), q = C(0.0LF), term = C(1.0LF);
  for (int k = 0; k < 40; ++k) {
    R signed_term = (k / 2) % 2 == 0 ? term : -term;
    if (k % 2 == 0) {
      p += signed_term;
    } else {
      q += signed_term;
    }
    term *= (mu - R((2 * k + 1) * (2 * k + 1))) / (R(8 * (k + 1)) * x);
    if (abs(term) < C(1.0e-18LF)) break;
  }
  const R half_sqrt2 = C(0.707106781186547524400844362104849039LF);
  R c = m_cos(x), s = m_sin(x);
  R cos_chi = nu == 0 ? (c + s) * half_sqrt2 : (s - c) * half_sqrt2;
  R sin_chi = nu == 0 ? (s - c) * half_sqrt2 : -(s + c) * half_sqrt2;
  R amplitude = sqrt(C(0.636619772367581343075535053490057448LF) / x);
  j = amplitude * (p * cos_chi - q * sin_chi);
  y = amplitude * (p * sin_chi + q * cos_chi);
}

// J_nu(x) (first = true) or Y_nu(x), nu = 0 or 1. At +-inf NaN, not the
// limit 0, as the CPU and CUDA return (their cos(inf) reaches the result).
R bessel_jy(R x, int nu, bool first) {
  if (isnan(x) || isinf(x)) return R(kNaN);
  if (first) {
    if (x == C(0.0LF)) return nu == 0 ? C(1.0LF) : x;
  } else {
    if (x == C(0.0LF)) return -R(kInf);
    if (x < C(0.0LF)) return R(kNaN);
  }
  R a = abs(x), j, y;
  if (a >= JY_ASYMPTOTIC) {
    bessel_jy_asymptotic(a, nu, j, y);
  } else {
    R j0, j1, y0, y1;
    bessel_jy_recurrence(a, j0, j1, y0, y1);
    j = nu == 0 ? j0 : j1;
    y = nu == 0 ? y0 : y1;
  }
  if (!first) return y;
  return nu == 1 && x < C(0.0LF) ? -j : j;  // J1 is odd
}

// e^x K_nu(x) = integral_0^inf exp(-x (cosh t - 1)) cosh(nu t) dt for x > 0,
// by the trapezoidal rule: the integrand is even and analytic, so the rule
// converges geometrically in 1/h (relative error near 1e-15 in double at h =
// 0.125, 4e-7 in float at 0.25, measured against SciPy from x = 1e-6 to
// 1e4). The step shrinks as 1/sqrt(x) with the integrand's width, and the
// sum stops where the exponent passes R's range of interest: at most ~150
// terms in double, ~70 in float. x (cosh t - 1) is formed as 2x sinh^2(t/2),
// exact near t = 0.
#ifdef R_DOUBLE
#define K_STEP C(0.125LF)
#define K_CUT C(42.0LF)
#else
#define K_STEP C(0.25LF)
#define K_CUT C(20.0LF)
#endif

R bessel_k_scaled(R x, R nu) {
  R h = K_STEP / max(C(1.0LF), sqrt(x)), sum = C(0.5LF);
  for (int k = 1; k < 1000; ++k) {
    R t = R(k) * h, s = m_sinh(t / C(2.0LF)), e = C(2.0LF) * x * s * s;
    if (e > K_CUT) break;
    sum += m_exp(-e) * m_cosh(nu * t);
  }
  return sum * h;
}

// K_nu(x) (nu = 0, 1), e^x K_nu(x) when scaled.
R bessel_k(R x, int nu, bool scaled) {
  if (isnan(x)) return x;
  if (x < C(0.0LF)) return R(kNaN);
  if (x == C(0.0LF)) return R(kInf);
  if (isinf(x)) return C(0.0LF);
  R k = bessel_k_scaled(x, R(nu));
  if (scaled) return k;
  R root = m_exp(-x / C(2.0LF));  // two halves: e^-x alone underflows first
  return root * (k * root);
}

// j0(x) = sin(x) / x, its Taylor series 1 - x^2/6 + x^4/120 where the
// quotient would lose the last bits.
R spherical_bessel_j0(R x) {
  if (isinf(x)) return C(0.0LF);
  if (abs(x) < C(0.5LF)) {
    R z = x * x;
    return C(1.0LF) - z / C(6.0LF) * (C(1.0LF) - z / C(20.0LF) * (C(1.0LF) - z / C(42.0LF) * (C(1.0LF) - z / C(72.0LF) *
           (C(1.0LF) - z / C(110.0LF) * (C(1.0LF) - z / C(156.0LF))))));
  }
  return m_sin(x) / x;
}

// --- Relatives of erf ---------------------------------------------------

// erfcx(x) = e^(x^2) erfc(x). Below 2 the product itself (x^2 <= 4 costs
// at most a few ulp); from 2 Laplace's continued fraction
//   erfcx(x) = 1 / (sqrt(pi) (x + (1/2) / (x + 1 / (x + (3/2) / (x + ...)))))
// evaluated from a fixed depth (60 terms: 1e-16 at x = 2, fewer needed
// further out); for x < 0, 2 e^(x^2) - erfcx(-x), which overflows to +inf
// where e^(x^2) does.
#ifdef R_DOUBLE
#define ERFCX_DEPTH 60
#else
#define ERFCX_DEPTH 24
#endif

R erfcx_positive(R x) {
  if (x < C(2.0LF)) return m_exp(x * x) * m_erfc(x);
  if (isinf(x)) return C(0.0LF);
  R f = x;
  for (int k = ERFCX_DEPTH; k >= 1; --k) f = x + R(k) / C(2.0LF) / f;
  return C(1.0LF) / (C(1.77245385090551602729816748334114518LF) * f);
}

R erfcx(R x) {
  if (isnan(x)) return x;
  if (x >= C(0.0LF)) return erfcx_positive(x);
  if (x < C(-26.7LF)) return R(kInf);
  R h = m_exp(C(0.5LF) * x * x);  // e^(x^2) as h * h, finite as long as it can be
  return C(2.0LF) * h * h - erfcx_positive(-x);
}

// log Phi(x), Phi the standard normal CDF: log1p(-Phi(-x)) for x >= -1,
// where Phi(x) is near 1; below, log(erfcx(-x / sqrt 2) / 2) - x^2 / 2, which
// stays finite where Phi(x) underflows.
R log_ndtr(R x) {
  const R sqrt_half = C(0.707106781186547524400844362104849039LF);
  if (x >= C(-1.0LF)) return m_log1p(C(-0.5LF) * m_erfc(x * sqrt_half));
  return m_log(C(0.5LF) * erfcx(-x * sqrt_half)) - C(0.5LF) * x * x;
}

// --- Incomplete gamma functions -----------------------------------------

// The regularized lower (P) and upper (Q) incomplete gamma functions, by
// the classical pair: for x < a + 1 the series
//   P(a, x) = x^a e^-x / Gamma(a + 1) * sum_n x^n / ((a + 1) ... (a + n)),
// else Legendre's continued fraction for Q, evaluated by the modified
// Lentz method; the other function as 1 minus it, as Cephes does (a small Q
// at x < a + 1 keeps its absolute, not its relative, precision). Edge cases
// as the CPU, in its order (so that some NaN arguments give a number): NaN
// for a < 0 or x < 0; a = 0 is the limit (P = 1 for x > 0, NaN at x = 0);
// P(a, 0) = 0; infinite a gives P = 0 unless x is also infinite (NaN);
// P(a, inf) = 1 (incomplete_gamma below).

// x^a e^-x / Gamma(a). For large a the logarithms a log x and lgamma(a)
// cancel to the digits that matter: there, with Stirling's series
// lgamma(a) = (a - 1/2) log a - a + log(2 pi) / 2 + d(a), it is
//   sqrt(a / (2 pi)) exp(-a phi(x / a) - d(a)),   phi(r) = r - 1 - log r,
// and phi(1 + t) is summed as 2u^2 / (1 - u) - 2u^3 (1/3 + u^2/5 + ...), u =
// t / (2 + t), without cancellation near r = 1.
R gamma_prefix(R a, R x) {
  if (a <= C(20.0LF)) return m_exp(a * m_log(x) - x - m_lgamma(a));
  R t = x / a - C(1.0LF), phi;
  if (abs(t) < C(0.5LF)) {
    R u = t / (C(2.0LF) + t), u2 = u * u, odd = C(0.0LF), power = C(1.0LF);
    for (int k = 0; k < 40; ++k) {
      odd += power / R(2 * k + 3);
      power *= u2;
    }
    phi = C(2.0LF) * u2 / (C(1.0LF) - u) - C(2.0LF) * u2 * u * odd;
  } else {
    phi = t - m_log1p(t);
  }
  R z = C(1.0LF) / (a * a);  // d(a) = 1/(12a) - 1/(360a^3) + 1/(1260a^5) - 1/(1680a^7) + 1/(1188a^9)
  R d = (C(1.0LF) / C(12.0LF) - z * (C(1.0LF) / C(360.0LF) - z * (C(1.0LF) / C(1260.0LF) -
        z * (C(1.0LF) / C(1680.0LF) - z / C(1188.0LF))))) / a;
  return sqrt(a / C(6.28318530717958647692528676655900577LF)) * m_exp(-a * phi - d);
}

R igamma_series(R a, R x) {
  R term = C(1.0LF) / a, sum = term;
  for (int n = 1; n < 2000; ++n) {
    term *= x / (a + R(n));
    sum += term;
    if (abs(term) < abs(sum) * C(1.0e-17LF)) break;
  }
  return sum * gamma_prefix(a, x);
}

// The relative size below which a series' next term or a fraction's next
// factor changes nothing in R, and Lentz's stand-in for a zero denominator.
#ifdef R_DOUBLE
#define R_TOLERANCE C(1.0e-16LF)
#define LENTZ_TINY C(1.0e-300LF)
#else
#define R_TOLERANCE C(1.0e-7LF)
#define LENTZ_TINY C(1.0e-30LF)
#endif

// Lentz's method for f = b_0 + t_1 / (b_1 + t_2 / (b_2 + ...)) with f's
// derivative in a parameter (the terms' dt and db) carried beside it by
// the chain rule: f, c and d as Lentz's, df, dc and dd their derivatives.
struct Fraction {
  R f, df, c, dc, d, dd;
};

Fraction fraction_start(R b0, R db0) { return Fraction(b0, db0, b0, db0, C(0.0LF), C(0.0LF)); }

// One step (t, dt over b, db); true once f and df have converged.
bool fraction_step(inout Fraction s, R t, R dt, R b, R db) {
  R den = b + t * s.d, dden = db + dt * s.d + t * s.dd;
  if (abs(den) < LENTZ_TINY) {
    den = LENTZ_TINY;
    dden = C(0.0LF);
  }
  R next = b + t / s.c, dnext = db + (dt * s.c - t * s.dc) / (s.c * s.c);
  if (abs(next) < LENTZ_TINY) {
    next = LENTZ_TINY;
    dnext = C(0.0LF);
  }
  s.d = C(1.0LF) / den;
  s.dd = -dden * s.d * s.d;
  s.c = next;
  s.dc = dnext;
  R delta = s.c * s.d, ddelta = s.dc * s.d + s.c * s.dd;
  s.df = s.df * delta + s.f * ddelta;
  s.f *= delta;
  return abs(delta - C(1.0LF)) <= R_TOLERANCE && abs(s.f * ddelta) <= abs(s.df) * R_TOLERANCE;
}

// Legendre's continued fraction for Q: Q = prefix / G, G = b_1 + t_2 / (b_2
// + ...), b_i = x + 2i - 1 - a, t_(i+1) = -i (i - a), with dG/da beside it
// (b' = -1, t' = i) for standard_gamma_grad.
Fraction gamma_fraction(R a, R x) {
  R b = x + C(1.0LF) - a;
  Fraction g = fraction_start(b, C(-1.0LF));
  for (int i = 1; i < 20000; ++i)
    if (fraction_step(g, -R(i) * (R(i) - a), R(i), b + R(2 * i), C(-1.0LF))) break;
  return g;
}

R igammac_fraction(R a, R x) { return gamma_prefix(a, x) / gamma_fraction(a, x).f; }

R incomplete_gamma(R a, R x, bool upper) {
  if (a < C(0.0LF) || x < C(0.0LF)) return R(kNaN);
  if (a == C(0.0LF)) return x > C(0.0LF) ? (upper ? C(0.0LF) : C(1.0LF)) : R(kNaN);
  if (x == C(0.0LF)) return upper ? C(1.0LF) : C(0.0LF);
  if (isinf(a)) return isinf(x) ? R(kNaN) : (upper ? C(1.0LF) : C(0.0LF));
  if (isinf(x)) return upper ? C(0.0LF) : C(1.0LF);
  if (isnan(a) || isnan(x)) return R(kNaN);
  if (x < a + C(1.0LF)) {
    R p = igamma_series(a, x);
    return upper ? C(1.0LF) - p : p;
  }
  R q = igammac_fraction(a, x);
  return upper ? q : C(1.0LF) - q;
}

// --- The reparameterized gradients of Gamma and Dirichlet samples --------

// log z - psi(z), from psi's asymptotic series from z = 30 (its terms are
// below 1e-17 relative there): both gradients need differences of log and
// psi at large, nearby arguments, which the direct forms cancel away.
R log_minus_digamma(R z) {
  if (z < C(30.0LF)) return m_log(z) - m_digamma(z);
  R w = C(1.0LF) / (z * z);
  return C(0.5LF) / z +
         w * (C(1.0LF) / C(12.0LF) - w * (C(1.0LF) / C(120.0LF) - w * (C(1.0LF) / C(252.0LF) - w / C(240.0LF))));
}

// d x / d a at fixed CDF value for x ~ Gamma(a, 1) (torch's
// _standard_gamma_grad): -(dP(a, x) / da) / p(x; a). With P = prefix S
// (igamma_series' sum, prefix = x^a e^-x / Gamma(a)) and p = prefix / x the
// prefix cancels, so tiny x keep their digits:
//   grad = x (sum_n T_n H_n - S (log x - psi(a))),
//   T_n = x^n / (a (a + 1) ... (a + n)),  H_n = sum_(k <= n) 1 / (a + k),
// (dT_n / da = -T_n H_n), and from x >= a + 1, with Q = prefix F (the
// continued fraction of gamma_fraction),
//   grad = x (F (log x - psi(a)) + dF / da),
// dF / da carried through Lentz's iteration beside F. Within 2e-13 of
// mpmath in float64 for a in [1e-3, 1e4]; the CPU's rational fits are up to
// 3e-4 off. x <= 0 gives 0, as on the CPU.
R standard_gamma_grad(R a, R x) {
  if (isnan(a) || isnan(x) || isinf(a) || isinf(x) || a <= C(0.0LF)) return R(kNaN);
  if (x <= C(0.0LF)) return C(0.0LF);
  // log x - psi(a) cancels for x near a large a (samples sit there), so
  // there it is formed as log1p((x - a) / a) + (log a - psi(a)).
  R shift = a >= C(30.0LF) && abs(x - a) < C(0.5LF) * a ? m_log1p((x - a) / a) + log_minus_digamma(a)
                                                           : m_log(x) - m_digamma(a);
  if (x < a + C(1.0LF)) {
    R t = C(1.0LF) / a, h = t, s = t, th = t * h;
    for (int n = 1; n < 20000; ++n) {
      t *= x / (a + R(n));
      h += C(1.0LF) / (a + R(n));
      s += t;
      th += t * h;
      if (t <= s * R_TOLERANCE && t * h <= th * R_TOLERANCE) break;
    }
    return x * (th - s * shift);
  }
  Fraction g = gamma_fraction(a, x);  // F = 1 / G
  return x * (shift - g.df / g.f) / g.f;
}

// Term k >= 1 of the continued fraction of the incomplete beta function,
//   I_z(p, q) = z^p (1 - z)^q / (p B(p, q)) / (1 + d_1 / (1 + d_2 / ...)),
//   d_(2m+1) = -(p + m) (p + q + m) z / ((p + 2m) (p + 2m + 1)),
//   d_(2m) = m (q - m) z / ((p + 2m - 1) (p + 2m)),
// and its derivative in p (in_p) or in q.
void beta_fraction_term(int k, R p, R q, R z, bool in_p, out R d, out R dd) {
  if (k % 2 == 1) {
    R m = R((k - 1) / 2), n = (p + m) * (p + q + m), den = (p + C(2.0LF) * m) * (p + C(2.0LF) * m + C(1.0LF));
    d = -n * z / den;
    dd = in_p ? -z * ((C(2.0LF) * p + q + C(2.0LF) * m) * den - n * (C(2.0LF) * p + C(4.0LF) * m + C(1.0LF))) / (den * den)
              : -(p + m) * z / den;
  } else {
    R m = R(k / 2), den = (p + C(2.0LF) * m - C(1.0LF)) * (p + C(2.0LF) * m);
    d = m * (q - m) * z / den;
    dd = in_p ? -d * (C(2.0LF) * p + C(4.0LF) * m - C(1.0LF)) / den : m * z / den;
  }
}

// g = 1 + d_1 / (1 + d_2 / ...) with its derivative in p or q; converges
// fast for z < (p + 1) / (p + q + 2).
Fraction beta_fraction(R p, R q, R z, bool in_p) {
  Fraction g = fraction_start(C(1.0LF), C(0.0LF));
  for (int k = 1; k < 20000; ++k) {
    R t, dt;
    beta_fraction_term(k, p, q, z, in_p, t, dt);
    if (fraction_step(g, t, dt, C(1.0LF), C(0.0LF))) break;
  }
  return g;
}

// torch's _dirichlet_grad: for x ~ Beta(a, b), b = total - a,
//   -(dI_x(a, b) / da) / p(x; a, b) / (1 - x),
// the factor Dirichlet's rsample backward builds on. With I written through
// the continued fraction (its prefix is p(x; a, b) x (1 - x) / a) the
// density cancels:
//   x < (a + 1) / (a + b + 2):  -(x / a) (F (s - 1 / a) + dF / da),
//     F = 1 / g(a, b, x);
//   otherwise, by I_x(a, b) = 1 - I_(1-x)(b, a):
//     (x / b) (F' s + dF' / da),  F' = 1 / g(b, a, 1 - x),
// s = log x - psi(a) + psi(a + b). Within 5e-12 of mpmath in float64 where
// the CPU's fits stray up to 4e-4. Outside 0 <= x <= 1, a > 0, b > 0 (and
// for NaN) NaN, where the CPU's fits return arbitrary numbers; 0 at x = 0
// and psi's difference / b at x = 1, the limits, as the CPU.
R dirichlet_grad(R x, R a, R total) {
  R b = total - a;
  if (!(x >= C(0.0LF) && x <= C(1.0LF) && a > C(0.0LF) && b > C(0.0LF)) || isinf(total)) return R(kNaN);
  if (x == C(0.0LF)) return C(0.0LF);
  // psi(a + b) - psi(a) as log1p(b / a) plus the difference of the series
  // above: directly it cancels for large a (to 1e-3 in float at a = 280).
  R s = m_log(x) + (a >= C(30.0LF) ? m_log1p(b / a) + log_minus_digamma(a) - log_minus_digamma(total)
                                    : m_digamma(total) - m_digamma(a));
  if (x < (a + C(1.0LF)) / (total + C(2.0LF))) {
    Fraction g = beta_fraction(a, b, x, true);
    return -(x / a) * (s - C(1.0LF) / a - g.df / g.f) / g.f;
  }
  Fraction g = beta_fraction(b, a, C(1.0LF) - x, false);
  return (x / b) * (s - g.df / g.f) / g.f;
}

// --- Orthogonal polynomials ---------------------------------------------

// The classical polynomials of degree n (a tensor, truncated to an integer
// as the CPU does): their three-term recurrences, and at the points and
// degrees where the CPU takes a closed form (the ends of [-1, 1], the
// trigonometric forms of Chebyshev's polynomials for larger n), the same
// closed form, so the results agree also where the recurrence and the
// trigonometric form round differently. Negative n gives 0.

// Chebyshev's recurrence P_k = 2x P_(k-1) - P_(k-2) from P_0 = 1 and P_1 =
// first (x for T, 2x for U, 2x - 1 for V, 2x + 1 for W).
R chebyshev_recurrence(R x, R first, int64_t n) {
  if (n == 0) return C(1.0LF);
  R p = C(1.0LF), q = first;
  for (int64_t k = 2; k <= n; ++k) {
    R r = (x + x) * q - p;
    p = q;
    q = r;
  }
  return q;
}

R chebyshev_t(R x, int64_t n) {
  if (n < 0) return C(0.0LF);
  if (abs(x) == C(1.0LF)) return x > C(0.0LF) || n % 2 == 0 ? C(1.0LF) : C(-1.0LF);
  if (n > 6 && abs(x) < C(1.0LF)) return m_cos(R(n) * m_acos(x));
  return chebyshev_recurrence(x, x, n);
}

R chebyshev_u(R x, int64_t n) {
  if (n < 0) return C(0.0LF);
  if (abs(x) == C(1.0LF)) return x > C(0.0LF) || n % 2 == 0 ? R(n + 1) : -R(n + 1);
  if (n > 8 && abs(x) < C(1.0LF)) {
    R theta = m_acos(x), s = m_sin(theta);
    return s != C(0.0LF) ? m_sin(R(n + 1) * theta) / s : R(n + 1) * m_cos(R(n + 1) * theta) / x;
  }
  return chebyshev_recurrence(x, x + x, n);
}

// V (v = true) and W.
R chebyshev_vw(R x, int64_t n, bool v) {
  if (n < 0) return C(0.0LF);
  R odd_end = n % 2 == 0 ? C(1.0LF) : C(-1.0LF);  // the sign at x = -1
  if (abs(x) == C(1.0LF)) {
    if (v) return x > C(0.0LF) ? C(1.0LF) : odd_end * R(n + n + 1);
    return x > C(0.0LF) ? R(n + n + 1) : odd_end;
  }
  if (n > 8 && abs(x) < C(1.0LF)) {
    R theta = m_acos(x);
    if (v) {
      if (m_sin(theta / C(2.0LF)) != C(1.0LF)) return m_cos((R(n) + C(0.5LF)) * theta) / m_cos(theta / C(2.0LF));
      return odd_end * R(n + n + 1);
    }
    if (m_cos(theta / C(2.0LF)) != C(1.0LF)) return m_sin((R(n) + C(0.5LF)) * theta) / m_sin(theta / C(2.0LF));
    return x > C(0.0LF) ? R(n + n + 1) : odd_end;
  }
  return chebyshev_recurrence(x, v ? x + x - C(1.0LF) : x + x + C(1.0LF), n);
}

// Physicists' (H, physicists = true) and probabilists' (He) Hermite.
R hermite(R x, int64_t n, bool physicists) {
  if (n < 0) return C(0.0LF);
  if (n == 0) return C(1.0LF);
  R p = C(1.0LF), q = physicists ? x + x : x;
  for (int64_t k = 1; k < n; ++k) {
    R r = physicists ? (x + x) * q - R(k + k) * p : x * q - R(k) * p;
    p = q;
    q = r;
  }
  return q;
}

R laguerre(R x, int64_t n) {
  if (n < 0) return C(0.0LF);
  if (x == C(0.0LF) || n == 0) return C(1.0LF);
  R p = C(1.0LF), q = C(1.0LF) - x;
  for (int64_t k = 1; k < n; ++k) {
    R r = ((R(k + k) + (C(1.0LF) - x)) * q - R(k) * p) / R(k + 1);
    p = q;
    q = r;
  }
  return q;
}

R legendre(R x, int64_t n) {
  if (n < 0) return C(0.0LF);
  if (abs(x) == C(1.0LF)) return x > C(0.0LF) || n % 2 == 0 ? C(1.0LF) : C(-1.0LF);
  if (n == 0) return C(1.0LF);
  R p = C(1.0LF), q = x;
  for (int64_t k = 1; k < n; ++k) {
    R r = (R(k + k + 1) * x * q - R(k) * p) / R(k + 1);
    p = q;
    q = r;
  }
  return q;
}

// --- Hurwitz zeta ---------------------------------------------------------

// special.zeta(s, q): common/math_real.glsl's Euler-Maclaurin sum, with the
// CPU's domain, checked in its order (s = 1 gives +inf also for a NaN q):
// +inf at s = 1 and at the poles q = 0, -1, ...; NaN for s < 1 and for q < 0
// with a non-integer s (a negative base's real power).
R zeta(R s, R q) {
  if (s == C(1.0LF)) return R(kInf);
  if (s < C(1.0LF)) return R(kNaN);
  if (q <= C(0.0LF)) {
    if (q == floor(q)) return R(kInf);
    if (s != floor(s)) return R(kNaN);
  }
  return hurwitz_zeta(s, q);
}

// --- Airy's Ai -------------------------------------------------------------

// special.airy_ai, by regime:
//  - x > 2: (1/pi) sqrt(x/3) K_(1/3)(zeta), zeta = (2/3) x^(3/2) (DLMF
//    9.6.1), through bessel_k_scaled;
//  - -AIRY_ASYMPTOTIC <= x <= 2: Ai's equation y'' = x y in Taylor steps from
//    Ai(0) and Ai'(0): one step to x >= 0 (Maclaurin's series; its terms
//    reach e^zeta, 6.6 at x = 2, times the result), steps of at most 0.5
//    below 0, where the equation is neutrally stable and the single series
//    would lose e^zeta to cancellation (1e9 at x = -10);
//  - below: the oscillating asymptotic expansion (DLMF 9.7.9), whose error
//    is about e^(-2 zeta): 1e-18 from x = -10 in double, 2e-11 from -7 in
//    float.
// NaN at +-inf, as the CPU.
#ifdef R_DOUBLE
#define AIRY_ASYMPTOTIC C(10.0LF)
#else
#define AIRY_ASYMPTOTIC C(7.0LF)
#endif
#define AIRY_AI0 C(0.355028053887817239260LF)    // Ai(0) = 1 / (3^(2/3) Gamma(2/3))
#define AIRY_AIP0 C(-0.258819403792806798405LF)  // Ai'(0) = -1 / (3^(1/3) Gamma(1/3))

// (y, y') at x0 to (y, y') at x0 + h: with b_n = a_n h^n for the Taylor
// coefficients a_n of y at x0, y'' = x y gives
// (n + 2)(n + 1) b_(n+2) = x0 h^2 b_n + h^3 b_(n-1).
void airy_step(R x0, R h, inout R y, inout R dy) {
  R h2 = x0 * h * h, h3 = h * h * h;
  R before = C(0.0LF), b0 = y, b1 = dy * h;  // b_(n-1), b_n, b_(n+1)
  R sum = b0 + b1, dsum = b1;                // y and h y' at x0 + h
  for (int n = 0; n < 200; ++n) {
    R next = (h2 * b0 + h3 * before) / R((n + 2) * (n + 1));
    sum += next;
    dsum += R(n + 2) * next;
    before = b0;
    b0 = b1;
    b1 = next;
    R scale = abs(sum) + abs(dsum);
    if (n > 2 && (abs(before) + abs(b0) + abs(b1)) * R(n + 2) <= scale * R_TOLERANCE) break;
  }
  y = sum;
  dy = dsum / h;
}

R airy_ai(R x) {
  if (isnan(x) || isinf(x)) return R(kNaN);
  if (x > C(2.0LF)) {
    R zeta = C(2.0LF) / C(3.0LF) * x * sqrt(x), root = m_exp(-zeta / C(2.0LF));
    R k = bessel_k_scaled(zeta, C(1.0LF) / C(3.0LF));
    return C(0.318309886183790671538LF) * sqrt(x / C(3.0LF)) * root * (k * root);
  }
  if (x >= -AIRY_ASYMPTOTIC) {
    R y = AIRY_AI0, dy = AIRY_AIP0;
    if (x >= C(0.0LF)) {
      if (x > C(0.0LF)) airy_step(C(0.0LF), x, y, dy);
      return y;
    }
    int steps = int(ceil(-x / C(0.5LF)));
    R h = x / R(steps);
    for (int i = 0; i < steps; ++i) airy_step(R(i) * h, h, y, dy);
    return y;
  }
  // Ai(-z) ~ (cos(zeta - pi/4) P + sin(zeta - pi/4) Q) / (sqrt(pi) z^(1/4)),
  // P = sum (-1)^k u_2k / zeta^2k, Q = sum (-1)^k u_(2k+1) / zeta^(2k+1),
  // u_k = u_(k-1) (6k - 5)(6k - 3)(6k - 1) / ((2k - 1) 216 k); summed while
  // the terms fall.
  R z = -x, zeta = C(2.0LF) / C(3.0LF) * z * sqrt(z);
  R p = C(1.0LF), q = C(0.0LF), term = C(1.0LF);
  for (int k = 1; k < 100; ++k) {
    R next = term * R((6 * k - 5) * (6 * k - 3) * (6 * k - 1)) / (R((2 * k - 1) * 216 * k) * zeta);
    if (next >= term || next <= R_TOLERANCE) break;
    term = next;
    R signed_term = ((k / 2) % 2 == 0) ? term : -term;
    if (k % 2 == 0) {
      p += signed_term;
    } else {
      q += signed_term;
    }
  }
  R c = m_cos(zeta), s = m_sin(zeta);  // cos(zeta - pi/4) = (c + s) / sqrt 2, sin(..) = (s - c) / sqrt 2
  return ((c + s) * p + (s - c) * q) * C(0.398942280401432677940LF) / sqrt(sqrt(z));
}
