// The op of a unary variant (OP_<name>), on X's compute type. The m_<name>
// functions are in common/math.glsl (float) and common/math64.glsl (double).
#include "elementwise/rounding.glsl"

// Odd functions that leave zero at zero give a zero argument back as it is:
// -0.0 must stay -0.0, as IEEE and the CPU keep it, but range reductions
// (x - k c with k = -0.0 is +0.0) and lavapipe's sqrt drop the sign.
X_T keep_zero(X_T x, X_T fx) { return x == X_T(0) ? x : fx; }

#if defined(OP_neg)
X_T op(X_T x) { return -x; }
#elif defined(OP_abs)
X_T op(X_T x) { return abs(x); }
#elif defined(OP_identity)  // rounding and sign of integers and bools
X_T op(X_T x) { return x; }
#elif defined(OP_sign)  // NaN -> 0 and -0.0 -> 0, as (0 < x) - (x < 0) in C++
X_T op(X_T x) { return X_CAST(X_T(0) < x) - X_CAST(x < X_T(0)); }
#elif defined(OP_angle)
// The phase of a real number: pi below zero, 0 from -0.0 up, NaN kept. In
// float the sign is read from the bits (a set sign bit over a nonzero
// magnitude): a driver that flushes float32 subnormals compares them as 0.
X_T op(X_T x) {
#ifdef X_DT_F64
  bool negative = x < X_T(0);
#else
  bool negative = floatBitsToUint(x) > 0x80000000u;
#endif
  return isnan(x) ? x : (negative ? X_T(3.14159265358979323846LF) : X_T(0));
}
#elif defined(OP_reciprocal)
X_T op(X_T x) { return X_T(1) / x; }
#elif defined(OP_sqrt)
X_T op(X_T x) { return keep_zero(x, sqrt(x)); }
#elif defined(OP_rsqrt)
X_T op(X_T x) { return X_T(1) / sqrt(x); }
#elif defined(OP_exp)
X_T op(X_T x) { return m_exp(x); }
#elif defined(OP_exp2)
X_T op(X_T x) { return m_exp2(x); }
#elif defined(OP_expm1)
X_T op(X_T x) { return keep_zero(x, m_expm1(x)); }
#elif defined(OP_log)
X_T op(X_T x) { return m_log(x); }
#elif defined(OP_log2)
X_T op(X_T x) { return m_log2(x); }
#elif defined(OP_log10)
X_T op(X_T x) { return m_log10(x); }
#elif defined(OP_log1p)
X_T op(X_T x) { return m_log1p(x); }
#elif defined(OP_sin)
X_T op(X_T x) { return keep_zero(x, m_sin(x)); }
#elif defined(OP_cos)
X_T op(X_T x) { return m_cos(x); }
#elif defined(OP_tan)
X_T op(X_T x) { return keep_zero(x, m_tan(x)); }
#elif defined(OP_asin)
X_T op(X_T x) { return keep_zero(x, m_asin(x)); }
#elif defined(OP_acos)
X_T op(X_T x) { return m_acos(x); }
#elif defined(OP_atan)
X_T op(X_T x) { return keep_zero(x, m_atan(x)); }
#elif defined(OP_sinh)
X_T op(X_T x) { return keep_zero(x, m_sinh(x)); }
#elif defined(OP_cosh)
X_T op(X_T x) { return m_cosh(x); }
#elif defined(OP_tanh)
X_T op(X_T x) { return keep_zero(x, m_tanh(x)); }
#elif defined(OP_asinh)
X_T op(X_T x) { return keep_zero(x, m_asinh(x)); }
#elif defined(OP_acosh)
X_T op(X_T x) { return m_acosh(x); }
#elif defined(OP_atanh)
X_T op(X_T x) { return keep_zero(x, m_atanh(x)); }
#elif defined(OP_sigmoid)
X_T op(X_T x) { return m_sigmoid(x); }
#elif defined(OP_logit)  // scalars: the clamp bounds lo, hi and whether to clamp
X_T op(X_T x) {
  if (X_SCALAR(2) != X_T(0)) x = x < X_SCALAR(0) ? X_SCALAR(0) : (x > X_SCALAR(1) ? X_SCALAR(1) : x);
  return x == X_T(1) ? X_T(kInf) : m_log(x / (X_T(1) - x));
}
#elif defined(OP_erf)
X_T op(X_T x) { return keep_zero(x, m_erf(x)); }
#elif defined(OP_erfc)
X_T op(X_T x) { return m_erfc(x); }
#elif defined(OP_erfinv)
X_T op(X_T x) { return keep_zero(x, m_erfinv(x)); }
#elif defined(OP_lgamma)
X_T op(X_T x) { return m_lgamma(x); }
#elif defined(OP_digamma)
X_T op(X_T x) { return m_digamma(x); }
#elif defined(OP_i0)
X_T op(X_T x) { return bessel_i(x, 0, false); }
#elif defined(OP_i0e)
X_T op(X_T x) { return bessel_i(x, 0, true); }
#elif defined(OP_i1)
X_T op(X_T x) { return bessel_i(x, 1, false); }
#elif defined(OP_i1e)
X_T op(X_T x) { return bessel_i(x, 1, true); }
#elif defined(OP_ndtri)
X_T op(X_T x) { return m_ndtri(x); }
#elif defined(OP_polygamma)  // scalar 0: the order n (int64 bits)
X_T op(X_T x) { return m_polygamma(int(args.scalar[0]), x); }
#elif defined(OP_sinc)
X_T op(X_T x) { return m_sinc(x); }
#elif defined(OP_floor)
X_T op(X_T x) { return floor(x); }
#elif defined(OP_ceil)
X_T op(X_T x) { return ceil(x); }
#elif defined(OP_trunc)
X_T op(X_T x) { return trunc_x(x); }
#elif defined(OP_round)  // half to even, as std::nearbyint
X_T op(X_T x) { return round_even_x(x); }
#elif defined(OP_round_decimals)  // scalars: 10^|decimals| and whether decimals < 0
X_T op(X_T x) {
  return X_SCALAR(1) != X_T(0) ? round_even_x(x / X_SCALAR(0)) * X_SCALAR(0) : round_even_x(x * X_SCALAR(0)) / X_SCALAR(0);
}
#elif defined(OP_frac)
X_T op(X_T x) { return x - trunc_x(x); }
#elif defined(OP_nan_to_num)  // scalars: the replacements for NaN, +inf, -inf
X_T op(X_T x) { return isnan(x) ? X_SCALAR(0) : (isinf(x) ? (x > X_T(0) ? X_SCALAR(1) : X_SCALAR(2)) : x); }
#else
#error "unary: unknown op"
#endif
