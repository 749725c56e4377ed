// Functions built on the primitives m_exp, m_expm1, m_log, m_log1p, m_sin,
// m_tan, m_atan, m_high_bits and m_signbit, written once for the real type R:
// math.glsl includes this file with R = float, math64.glsl with R = double.
// C(double literal) is a constant in R (folded, so float variants need no
// float64 support). GLSL has no recursion, so reflection formulas call a
// separate function for the positive half.

R m_log10(R x) { return m_log(x) * C(0.434294481903251827651128918916605082LF); }

R m_sigmoid(R x) { return C(1.0LF) / (C(1.0LF) + m_exp(-x)); }

// 1 - 2 / (exp(2|x|) + 1) through expm1, exact near 0 and saturating to 1.
R m_tanh(R x) {
  R e = m_expm1(C(-2.0LF) * abs(x));
  R r = -e / (C(2.0LF) + e);
  return x < C(0.0LF) ? -r : r;
}

// (e^a - e^-a) / 2 with e^a = expm1(a) + 1, so small |x| keep their bits; past
// 20 e^-a is below R's precision and e^a is formed as h * h to overflow late.
R m_sinh(R x) {
  R a = abs(x);
  R r;
  if (a > C(20.0LF)) {
    R h = m_exp(C(0.5LF) * a);
    r = (C(0.5LF) * h) * h;
  } else {
    R e = m_expm1(a);
    r = C(0.5LF) * (e + e / (e + C(1.0LF)));
  }
  return x < C(0.0LF) ? -r : r;
}

R m_cosh(R x) {
  R a = abs(x);
  if (a > C(20.0LF)) {
    R h = m_exp(C(0.5LF) * a);
    return (C(0.5LF) * h) * h;
  }
  R e = m_exp(a);
  return C(0.5LF) * (e + C(1.0LF) / e);
}

// asinh |x| = log1p(|x| + x^2 / (1 + sqrt(1 + x^2))); log(2|x|) once x^2 would
// swamp the 1.
R m_asinh(R x) {
  R a = abs(x);
  R r;
  if (a > C(268435456.0LF)) {
    r = m_log(a) + C(0.693147180559945309417232121458176568LF);
  } else {
    r = m_log1p(a + a * a / (C(1.0LF) + sqrt(C(1.0LF) + a * a)));
  }
  return x < C(0.0LF) ? -r : r;
}

// acosh x = log1p(t + sqrt(2t + t^2)), t = x - 1 (exact near 1).
R m_acosh(R x) {
  if (x < C(1.0LF)) return R(kNaN);
  if (x > C(268435456.0LF)) return m_log(x) + C(0.693147180559945309417232121458176568LF);
  R t = x - C(1.0LF);
  return m_log1p(t + sqrt(C(2.0LF) * t + t * t));
}

// atanh x = log1p(2x / (1 - x)) / 2: +-inf at +-1 and NaN past them through log1p.
R m_atanh(R x) {
  R a = abs(x);
  R r = C(0.5LF) * m_log1p(C(2.0LF) * a / (C(1.0LF) - a));
  return x < C(0.0LF) ? -r : r;
}

// asin and acos through atan, accurate up to |x| = 1 (1 - x and 1 + x are
// exact where they matter).
R m_asin(R x) {
  if (abs(x) > C(1.0LF)) return R(kNaN);
  return m_atan(x / sqrt((C(1.0LF) - x) * (C(1.0LF) + x)));
}

R m_acos(R x) {
  if (abs(x) > C(1.0LF)) return R(kNaN);
  return C(2.0LF) * m_atan(sqrt((C(1.0LF) - x) / (C(1.0LF) + x)));
}

// sin(pi x), reduced exactly to |y| <= 1/2 first so integers give exact zeros.
R m_sinpi(R x) {
  R y = x - C(2.0LF) * roundEven(C(0.5LF) * x);
  if (y > C(0.5LF)) y = C(1.0LF) - y;
  if (y < C(-0.5LF)) y = C(-1.0LF) - y;
  return m_sin(C(3.14159265358979323846264338327950288LF) * y);
}

// PyTorch's sinc: sin(pi x) / (pi x), 1 at 0.
R m_sinc(R x) {
  if (x == C(0.0LF)) return C(1.0LF);
  R p = C(3.14159265358979323846264338327950288LF) * x;
  return m_sin(p) / p;
}

// erf and erfc as fdlibm's s_erf.c computes them: rational approximations on
// |x| < 0.84375 and [0.84375, 1.25), then erfc = exp(-x^2 - 0.5625 + R/S) / x
// with one rational fit on [1.25, 1/0.35) and one past it. The coefficients
// are fdlibm's (double); in float they simply round.
R erf_small_ratio(R z) {  // erf(x) = x + x * this, z = x^2
  R p = C(1.28379167095512558561e-01LF) + z * (C(-3.25042107247001499370e-01LF) + z * (C(-2.84817495755985104766e-02LF) +
        z * (C(-5.77027029648944159157e-03LF) + z * C(-2.37630166566501626084e-05LF))));
  R q = C(1.0LF) + z * (C(3.97917223959155352819e-01LF) + z * (C(6.50222499887672944485e-02LF) +
        z * (C(5.08130628187576562776e-03LF) + z * (C(1.32494738004321644526e-04LF) + z * C(-3.96022827877536812320e-06LF)))));
  return p / q;
}

R erf_mid(R s) {  // erf(1 + s) - erx, s in [-0.15625, 0.25), erx = erf(1) rounded
  R p = C(-2.36211856075265944077e-03LF) + s * (C(4.14856118683748331666e-01LF) + s * (C(-3.72207876035701323847e-01LF) +
        s * (C(3.18346619901161753674e-01LF) + s * (C(-1.10894694282396677476e-01LF) + s * (C(3.54783043256182359371e-02LF) +
        s * C(-2.16637559486879084300e-03LF))))));
  R q = C(1.0LF) + s * (C(1.06420880400844228286e-01LF) + s * (C(5.40397917702171048937e-01LF) + s * (C(7.18286544141962662868e-02LF) +
        s * (C(1.26171219808761642112e-01LF) + s * (C(1.36370839120290507362e-02LF) + s * C(1.19844998467991074170e-02LF))))));
  return p / q;
}

R erfc_tail(R a) {  // erfc(a) for a in [1.25, 28)
  R s = C(1.0LF) / (a * a);
  R r, q;
  if (a < C(2.85714285714285714286LF)) {
    r = C(-9.86494403484714822705e-03LF) + s * (C(-6.93858572707181764372e-01LF) + s * (C(-1.05586262253232909814e+01LF) +
        s * (C(-6.23753324503260060396e+01LF) + s * (C(-1.62396669462573470355e+02LF) + s * (C(-1.84605092906711035994e+02LF) +
        s * (C(-8.12874355063065934246e+01LF) + s * C(-9.81432934416914548592e+00LF)))))));
    q = C(1.0LF) + s * (C(1.96512716674392571292e+01LF) + s * (C(1.37657754143519042600e+02LF) + s * (C(4.34565877475229228821e+02LF) +
        s * (C(6.45387271733267880336e+02LF) + s * (C(4.29008140027567833386e+02LF) + s * (C(1.08635005541779435134e+02LF) +
        s * (C(6.57024977031928170135e+00LF) + s * C(-6.04244152148580987438e-02LF))))))));
  } else {
    r = C(-9.86494292470009928597e-03LF) + s * (C(-7.99283237680523006574e-01LF) + s * (C(-1.77579549177547519889e+01LF) +
        s * (C(-1.60636384855821916062e+02LF) + s * (C(-6.37566443368389627722e+02LF) + s * (C(-1.02509513161107724954e+03LF) +
        s * C(-4.83519191608651397019e+02LF))))));
    q = C(1.0LF) + s * (C(3.03380607434824582924e+01LF) + s * (C(3.25792512996573918826e+02LF) + s * (C(1.53672958608443695994e+03LF) +
        s * (C(3.19985821950859553908e+03LF) + s * (C(2.55305040643316442583e+03LF) + s * (C(4.74528541206955367215e+02LF) +
        s * C(-2.24409524465858183362e+01LF)))))));
  }
  // exp(-a^2) split as exp(-z^2) exp((z - a)(z + a)) with z = a's high bits, so
  // the square is exact.
  R z = m_high_bits(a);
  precise R rest = (z - a) * (z + a) + r / q;
  return m_exp(-z * z - C(0.5625LF)) * m_exp(rest) / a;
}

#ifndef R_HAS_ERF  // math.glsl has its own float erf
R m_erf(R x) {
  R a = abs(x);
  if (a < C(0.84375LF)) return x + x * erf_small_ratio(x * x);
  R r;
  if (a < C(1.25LF)) {
    r = C(8.45062911510467529297e-01LF) + erf_mid(a - C(1.0LF));
  } else if (a >= C(6.0LF)) {
    r = C(1.0LF);
  } else {
    r = C(1.0LF) - erfc_tail(a);  // NaN lands here and stays NaN
  }
  return x < C(0.0LF) ? -r : r;
}
#endif

R m_erfc(R x) {
  if (isnan(x)) return x;
  R a = abs(x);
  if (a < C(0.84375LF)) {
    R y = x * erf_small_ratio(x * x);
    return x < C(0.25LF) ? C(1.0LF) - (x + y) : C(0.5LF) - (x - C(0.5LF) + y);
  }
  if (a < C(1.25LF)) {
    R p = erf_mid(a - C(1.0LF));
    return x > C(0.0LF) ? C(1.54937088489532470703e-01LF) - p : C(1.0LF) + (C(8.45062911510467529297e-01LF) + p);
  }
  R e = a < C(28.0LF) ? erfc_tail(a) : C(0.0LF);
  return x > C(0.0LF) ? e : C(2.0LF) - e;
}

// PyTorch's erfinv: a rational first guess (central range |y| <= 0.7 and the
// tails), then two Newton steps on erf, which bring it to full precision.
R m_erfinv(R y) {
  R a = abs(y);
  if (a > C(1.0LF)) return R(kNaN);
  if (a == C(1.0LF)) return y < C(0.0LF) ? -R(kInf) : R(kInf);
  R x;
  if (a <= C(0.7LF)) {
    R z = y * y;
    R num = ((C(-0.140543331LF) * z + C(0.914624893LF)) * z + C(-1.645349621LF)) * z + C(0.886226899LF);
    R dem = (((C(0.012229801LF) * z + C(-0.329097515LF)) * z + C(1.442710462LF)) * z + C(-2.118377725LF)) * z + C(1.0LF);
    x = y * num / dem;
  } else {
    R z = sqrt(-m_log((C(1.0LF) - a) / C(2.0LF)));
    R num = ((C(1.641345311LF) * z + C(3.429567803LF)) * z + C(-1.624906493LF)) * z + C(-1.970840454LF);
    R dem = (C(1.637067800LF) * z + C(3.543889200LF)) * z + C(1.0LF);
    x = (y < C(0.0LF) ? -num : num) / dem;
  }
  const R two_over_sqrt_pi = C(1.12837916709551257389615890312154517LF);
  x -= (m_erf(x) - y) / (two_over_sqrt_pi * m_exp(-x * x));
  x -= (m_erf(x) - y) / (two_over_sqrt_pi * m_exp(-x * x));
  return x;
}

// log Gamma(x) for x > 0: shift to x >= 8 by Gamma(x + 1) = x Gamma(x), then
// Stirling's series with the Bernoulli terms through B16.
R lgamma_positive(R x) {
  R p = C(1.0LF);
  while (x < C(8.0LF)) {
    p *= x;
    x += C(1.0LF);
  }
  R z = C(1.0LF) / (x * x);
  R s = C(-2.95506535947712418301e-02LF);
  s = s * z + C(6.41025641025641025641e-03LF);
  s = s * z + C(-1.91752691752691752692e-03LF);
  s = s * z + C(8.41750841750841750842e-04LF);
  s = s * z + C(-5.95238095238095238095e-04LF);
  s = s * z + C(7.93650793650793650794e-04LF);
  s = s * z + C(-2.77777777777777777778e-03LF);
  s = s * z + C(8.33333333333333333333e-02LF);
  R lx = m_log(x);
  // (x - 1/2) log x - x + log(2 pi) / 2, arranged to overflow only with the result.
  return x * (lx - C(1.0LF)) - C(0.5LF) * lx + C(0.918938533204672741780329736406LF) + s / x - m_log(p);
}

// Poles (0 and the negative integers) and +-inf give +inf, as in C.
R m_lgamma(R x) {
  if (isinf(x)) return R(kInf);
  if (x <= C(0.0LF) && x == floor(x)) return R(kInf);
  if (x > C(0.0LF)) return lgamma_positive(x);
  // Reflection: Gamma(x) Gamma(1 - x) = pi / sin(pi x).
  return m_log(C(3.14159265358979323846264338327950288LF) / abs(m_sinpi(x))) - lgamma_positive(C(1.0LF) - x);
}

// PyTorch's calc_digamma: reflection for x < 0, recurrence up to x >= 10,
// then the asymptotic series (Cephes psi).
R m_digamma(R x) {
  if (x == C(0.0LF)) return m_signbit(x) ? R(kInf) : -R(kInf);
  R result = C(0.0LF);
  if (x < C(0.0LF)) {
    if (x == floor(x)) return R(kNaN);
    // tan has period pi: reduce x exactly to |r| <= 1/2 first, so pi r
    // rounds only relative to r (ATen computes this part in double).
    R r = x - roundEven(x);
    result = -C(3.14159265358979323846264338327950288LF) / m_tan(C(3.14159265358979323846264338327950288LF) * r);
    x = C(1.0LF) - x;
  }
  while (x < C(10.0LF)) {
    result -= C(1.0LF) / x;
    x += C(1.0LF);
  }
  if (x == C(10.0LF)) return result + C(2.25175258906672110764LF);
  R y = C(0.0LF);
  if (x < C(1.0e17LF)) {
    R z = C(1.0LF) / (x * x);
    R p = C(8.33333333333333333333e-02LF);
    p = p * z + C(-2.10927960927960927961e-02LF);
    p = p * z + C(7.57575757575757575758e-03LF);
    p = p * z + C(-4.16666666666666666667e-03LF);
    p = p * z + C(3.96825396825396825397e-03LF);
    p = p * z + C(-8.33333333333333333333e-03LF);
    p = p * z + C(8.33333333333333333333e-02LF);
    y = z * p;
  }
  return result + m_log(x) - C(0.5LF) / x - y;
}

// Modified Bessel functions of the first kind, orders 0 and 1, and their
// exponentially scaled forms e^-|x| I(x): the power series
//   I_nu(x) = sum_k (x / 2)^(2k + nu) / (k! (k + nu)!)
// (positive terms, so no cancellation) up to |x| = 30, then the asymptotic
// expansion (Abramowitz and Stegun 9.7.1, mu = 4 nu^2)
//   I_nu(x) ~ e^x / sqrt(2 pi x) sum_k t_k, t_0 = 1,
//   t_k = -t_{k-1} (mu - (2k - 1)^2) / (8 k x)
// whose terms shrink past double precision before they turn to grow. The
// scaled form is what both branches return; scaled = false puts e^|x| back
// (as two halves, so I_0(89) stays finite in float).
R bessel_i_scaled(R x, int nu) {
  R a = abs(x), sum;
  if (a <= C(30.0LF)) {
    R q = a * a / C(4.0LF), term = nu == 0 ? C(1.0LF) : a / C(2.0LF);
    sum = term;
    for (int k = 1; k < 200; ++k) {
      term *= q / (R(k) * R(k + nu));
      sum += term;
      if (term <= sum * C(1.0e-17LF)) break;
    }
    sum *= m_exp(-a);
  } else {
    R mu = R(4 * nu * nu), term = C(1.0LF);
    sum = term;
    for (int k = 1; k < 30; ++k) {
      term *= -(mu - R((2 * k - 1) * (2 * k - 1))) / (R(8 * k) * a);
      sum += term;
    }
    sum /= sqrt(C(6.28318530717958647692528676655900577LF) * a);
  }
  return nu == 1 && x < C(0.0LF) ? -sum : sum;
}

R bessel_i(R x, int nu, bool scaled) {
  if (isnan(x)) return x;
  // At +-inf: the scaled forms' limits (-0 for I1e(-inf)); the others NaN,
  // as the CPU's Cephes gives (inf times its series' zero).
  if (isinf(x)) return scaled ? (nu == 1 && x < C(0.0LF) ? -C(0.0LF) : C(0.0LF)) : R(kNaN);
  R s = bessel_i_scaled(x, nu);
  if (scaled) return s;
  R root = m_exp(abs(x) / C(2.0LF));
  return root * (root * s);
}

// The standard normal quantile (special.ndtri): Acklam's rational
// approximation (relative error 1.2e-9: central part for 0.02425 <= p <=
// 0.97575, the tails in sqrt(-2 log p)), then Halley steps on the normal
// CDF Phi(x) = erfc(-x / sqrt 2) / 2, one in float and two in double.
R m_ndtri(R p) {
  if (isnan(p) || p < C(0.0LF) || p > C(1.0LF)) return R(kNaN);
  if (p == C(0.0LF)) return -R(kInf);
  if (p == C(1.0LF)) return R(kInf);
  R x;
  if (p < C(0.02425LF) || p > C(0.97575LF)) {
    R q = sqrt(C(-2.0LF) * m_log(p < C(0.5LF) ? p : C(1.0LF) - p));
    R num = ((((C(-7.784894002430293e-03LF) * q + C(-3.223964580411365e-01LF)) * q + C(-2.400758277161838e+00LF)) * q +
              C(-2.549732539343734e+00LF)) * q + C(4.374664141464968e+00LF)) * q + C(2.938163982698783e+00LF);
    R den = (((C(7.784695709041462e-03LF) * q + C(3.224671290700398e-01LF)) * q + C(2.445134137142996e+00LF)) * q +
             C(3.754408661907416e+00LF)) * q + C(1.0LF);
    x = p < C(0.5LF) ? num / den : -num / den;
  } else {
    R q = p - C(0.5LF), r = q * q;
    R num = ((((C(-3.969683028665376e+01LF) * r + C(2.209460984245205e+02LF)) * r + C(-2.759285104469687e+02LF)) * r +
              C(1.383577518672690e+02LF)) * r + C(-3.066479806614716e+01LF)) * r + C(2.506628277459239e+00LF);
    R den = ((((C(-5.447609879822406e+01LF) * r + C(1.615858368580409e+02LF)) * r + C(-1.556989798598866e+02LF)) * r +
              C(6.680131188771972e+01LF)) * r + C(-1.328068155288572e+01LF)) * r + C(1.0LF);
    x = q * num / den;
  }
  const R sqrt_half = C(0.707106781186547524400844362104849039LF);
  const R sqrt_two_pi = C(2.50662827463100050241576528481104525LF);
#ifdef R_DOUBLE
  for (int step = 0; step < 2; ++step) {
#else
  for (int step = 0; step < 1; ++step) {
#endif
    // The residual from the nearer tail, so it keeps its digits there.
    R e = x < C(0.0LF) ? C(0.5LF) * m_erfc(-x * sqrt_half) - p : (C(1.0LF) - p) - C(0.5LF) * m_erfc(x * sqrt_half);
    R u = e * sqrt_two_pi * m_exp(x * x / C(2.0LF));
    x -= u / (C(1.0LF) + x * u / C(2.0LF));
  }
  return x;
}

// x^-s for an integer s > 0 (also for x < 0), by squaring: a few rounding
// errors, where exp(-s log x) would lose |s log x| ulps.
R inverse_power(R x, R s) {
  R base = C(1.0LF) / x, r = C(1.0LF);
  for (int e = int(s); e > 0; e >>= 1) {
    if ((e & 1) != 0) r *= base;
    base *= base;
  }
  return r;
}

// a^-s: by squaring for integer s (also for a < 0; see inverse_power),
// else exp(-s log a).
R power_minus(R a, R s) {
  return s == floor(s) && s < C(2147483647.0LF) ? inverse_power(a, s) : m_exp(-s * m_log(a));
}

// The Hurwitz zeta function zeta(s, q) = sum_k (q + k)^-s for s > 1 (an
// integer where q < 0), by Euler-Maclaurin summation: the terms up to q + k
// >= max(16, 2s) added directly, the rest as the integral, half the first
// term left out and the Bernoulli corrections B_2j / (2j)! s (s + 1) ...
// (s + 2j - 2) a^(-s - 2j + 1), j = 1..8. The last correction relative to
// the integral is about B_18 / 18! ((s + 8) / a)^17: below double precision
// from a = 16 for small s, and from a = 2s for large s (at a = 16 it was
// 3e-6 for s = 31.5). Once the positive terms' tail, a^-s a / (s - 1), is
// below R's precision of the sum, the sum is complete. Poles at q = 0, -1,
// -2, ... give +inf.
R hurwitz_zeta(R s, R q) {
  if (q <= C(0.0LF) && q == floor(q)) return R(kInf);
  const R bernoulli[8] = R[8](C(8.33333333333333333333e-02LF), C(-1.38888888888888888889e-03LF),
                              C(3.30687830687830687831e-05LF), C(-8.26719576719576719577e-07LF),
                              C(2.08767569878680989792e-08LF), C(-5.28419013868749318485e-10LF),
                              C(1.33825365306846788329e-11LF), C(-3.38968029632258286684e-13LF));
  R sum = C(0.0LF), a = q, direct = max(C(16.0LF), C(2.0LF) * s);
  for (int k = 0; k < 100000 && a < direct; ++k) {
    R term = power_minus(a, s);
    sum += term;
    a += C(1.0LF);
    if (a > C(1.0LF) && term * a <= sum * (s - C(1.0LF)) * C(1.0e-18LF)) return sum;  // term's base > 0
  }
  R power = power_minus(a, s);
  sum += a * power / (s - C(1.0LF)) + C(0.5LF) * power;
  R rising = s, term = power / a;  // s (s + 1) ... and a^(-s - 2j + 1)
  for (int j = 0; j < 8; ++j) {
    sum += bernoulli[j] * rising * term;
    rising *= (s + R(2 * j + 1)) * (s + R(2 * j + 2));
    term /= a * a;
  }
  return sum;
}

// The trigamma function: reflection below 1/2 (psi1(x) + psi1(1 - x) =
// pi^2 / sin^2(pi x), with sin(pi x) rounded as the CPU rounds it, so the
// large values near the poles agree), the recurrence psi1(x) = psi1(x + 1) + 1 / x^2 up to
// x >= 10, then its asymptotic series 1/x + 1/(2x^2) + sum B_2k / x^(2k+1).
R trigamma(R x) {
  R result = C(0.0LF), sign = C(1.0LF);
  if (x < C(0.5LF)) {
    R s = m_sin(C(3.14159265358979323846264338327950288LF) * x);
    result = C(9.86960440108935861883449099987615114LF) / (s * s);
    sign = C(-1.0LF);
    x = C(1.0LF) - x;
  }
  R tail = C(0.0LF);
  for (; x < C(10.0LF); x += C(1.0LF)) tail += C(1.0LF) / (x * x);
  R z = C(1.0LF) / (x * x);
  R series = C(1.0LF) / x + z / C(2.0LF) +
             z / x * (C(1.0LF) / C(6.0LF) - z * (C(1.0LF) / C(30.0LF) - z * (C(1.0LF) / C(42.0LF) - z / C(30.0LF))));
  // Reflected: psi1(x) = pi^2 / sin^2(pi x) - psi1(1 - x).
  return sign < C(0.0LF) ? result - (tail + series) : tail + series;
}

// polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x) for n >= 2; digamma and
// trigamma below.
R m_polygamma(int n, R x) {
  if (isnan(x)) return x;
  if (n == 0) return m_digamma(x);
  if (n == 1) return trigamma(x);
  R factorial = C(1.0LF);
  for (int k = 2; k <= n; ++k) factorial *= R(k);
  R z = hurwitz_zeta(R(n + 1), x);
  return (n % 2 == 1 ? factorial : -factorial) * z;
}
