// The op of a special-function variant (OP_<name>), on X's compute type:
// op(x) for special.comp, op(a, b) for special_binary.comp, op(a, b, c)
// for special_ternary.comp.
#include "common/math.glsl"

#define R X_T
#define C(x) R(x)
#ifdef X_DT_F64
#define R_DOUBLE 1
#endif
#include "elementwise/special_functions.glsl"

#if defined(OP_bessel_j0)
X_T op(X_T x) { return bessel_jy(x, 0, true); }
#elif defined(OP_bessel_j1)
X_T op(X_T x) { return bessel_jy(x, 1, true); }
#elif defined(OP_bessel_y0)
X_T op(X_T x) { return bessel_jy(x, 0, false); }
#elif defined(OP_bessel_y1)
X_T op(X_T x) { return bessel_jy(x, 1, false); }
#elif defined(OP_bessel_k0)
X_T op(X_T x) { return bessel_k(x, 0, false); }
#elif defined(OP_bessel_k1)
X_T op(X_T x) { return bessel_k(x, 1, false); }
#elif defined(OP_bessel_k0e)
X_T op(X_T x) { return bessel_k(x, 0, true); }
#elif defined(OP_bessel_k1e)
X_T op(X_T x) { return bessel_k(x, 1, true); }
#elif defined(OP_airy_ai)
X_T op(X_T x) { return airy_ai(x); }
#elif defined(OP_spherical_bessel_j0)
X_T op(X_T x) { return spherical_bessel_j0(x); }
#elif defined(OP_entr)  // -x log x, 0 at 0, -inf below
X_T op(X_T x) {
  if (isnan(x)) return x;
  if (x > X_T(0)) return -x * m_log(x);
  return x == X_T(0) ? X_T(0) : -X_T(kInf);
}
#elif defined(OP_erfcx)
X_T op(X_T x) { return erfcx(x); }
#elif defined(OP_log_ndtr)
X_T op(X_T x) { return log_ndtr(x); }
#elif defined(OP_xlog1py)  // 0 where x is 0, unless y is NaN
X_T op(X_T x, X_T y) {
  if (isnan(y)) return y;
  return x == X_T(0) ? X_T(0) : x * m_log1p(y);
}
#elif defined(OP_zeta)
X_T op(X_T s, X_T q) { return zeta(s, q); }
#elif defined(OP_igamma)
X_T op(X_T a, X_T x) { return incomplete_gamma(a, x, false); }
#elif defined(OP_igammac)
X_T op(X_T a, X_T x) { return incomplete_gamma(a, x, true); }
#elif defined(OP_standard_gamma_grad)
X_T op(X_T a, X_T x) { return standard_gamma_grad(a, x); }
#elif defined(OP_dirichlet_grad)
X_T op(X_T x, X_T a, X_T total) { return dirichlet_grad(x, a, total); }
#elif defined(OP_chebyshev_t)
X_T op(X_T x, X_T n) { return chebyshev_t(x, int64_t(n)); }
#elif defined(OP_chebyshev_u)
X_T op(X_T x, X_T n) { return chebyshev_u(x, int64_t(n)); }
#elif defined(OP_chebyshev_v)
X_T op(X_T x, X_T n) { return chebyshev_vw(x, int64_t(n), true); }
#elif defined(OP_chebyshev_w)
X_T op(X_T x, X_T n) { return chebyshev_vw(x, int64_t(n), false); }
#elif defined(OP_shifted_chebyshev_t)  // the polynomial at 2x - 1
X_T op(X_T x, X_T n) { return chebyshev_t(x + x - X_T(1), int64_t(n)); }
#elif defined(OP_shifted_chebyshev_u)
X_T op(X_T x, X_T n) { return chebyshev_u(x + x - X_T(1), int64_t(n)); }
#elif defined(OP_shifted_chebyshev_v)
X_T op(X_T x, X_T n) { return chebyshev_vw(x + x - X_T(1), int64_t(n), true); }
#elif defined(OP_shifted_chebyshev_w)
X_T op(X_T x, X_T n) { return chebyshev_vw(x + x - X_T(1), int64_t(n), false); }
#elif defined(OP_hermite_h)
X_T op(X_T x, X_T n) { return hermite(x, int64_t(n), true); }
#elif defined(OP_hermite_he)
X_T op(X_T x, X_T n) { return hermite(x, int64_t(n), false); }
#elif defined(OP_laguerre_l)
X_T op(X_T x, X_T n) { return laguerre(x, int64_t(n)); }
#elif defined(OP_legendre_p)
X_T op(X_T x, X_T n) { return legendre(x, int64_t(n)); }
#else
#error "special: unknown op"
#endif
