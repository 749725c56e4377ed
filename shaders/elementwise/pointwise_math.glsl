// Helpers the binary, scalar and ternary ops share, written once on the
// variant's compute type X_T (float, double, int, int64_t or bool).
#if defined(X_DT_F16) || defined(X_DT_BF16) || defined(X_DT_F32) || defined(X_DT_F64)
#define X_FLOAT 1
#endif
#if defined(X_DT_I8) || defined(X_DT_I16) || defined(X_DT_I32) || defined(X_DT_I64)
#define X_SIGNED 1
#endif

#ifdef X_FLOAT
// m_exp, m_log, ... for float and, in float64 variants, double; kInf and kNaN.
#include "common/math.glsl"

// The sign bit, which x < 0 misses for -0.0 (and NaN).
bool sign_bit(X_T x) {
#ifdef X_DT_F64
  return (unpackDouble2x32(x).y >> 31) != 0u;
#else
  return (floatBitsToUint(x) >> 31) != 0u;
#endif
}

X_T copysign_x(X_T magnitude, X_T sign) {
  X_T m = abs(magnitude);
  return sign_bit(sign) ? -m : m;
}

// C's fmod, exactly: subtracts |b| * 2^k from |a| for k from the exponent gap
// down to 0; every subtraction is exact (Sterbenz), which GLSL's mod(), a - b *
// floor(a / b), is not. |b| 2^gap is formed in three ldexp steps: GLSL lets
// ldexp misbehave where 2^k alone overflows (a gap past 127 in float, 1023
// in double: 1e20 and 1e-20), although the product fits. Each halving after
// it is exact (the result is |b| 2^k, representable).
X_T fmod_x(X_T a, X_T b) {
  if (isnan(a) || isnan(b) || isinf(a) || b == X_T(0)) return X_T(kNaN);
  X_T r = abs(a), d = abs(b);
  if (r < d) return a;  // also b = +-inf
  int er, ed;
  frexp(r, er);
  frexp(d, ed);
  int gap = er - ed, third = gap / 3;
  X_T s = ldexp(ldexp(ldexp(d, third), third), gap - 2 * third);
  for (int k = gap; k >= 0; --k) {
    if (r >= s) r -= s;
    s *= X_T(0.5);
  }
  return sign_bit(a) ? -r : r;
}

// a - q * b exactly, for q close to a / b: Dekker's product without FMA (the
// driver's fma need not be fused); `precise` keeps the compiler from
// simplifying the splits away.
X_T residual(X_T a, X_T q, X_T b) {
#ifdef X_DT_F64
  const X_T split = X_T(134217729.0);  // 2^27 + 1
#else
  const X_T split = X_T(4097.0);  // 2^12 + 1
#endif
  precise X_T c = split * q;
  precise X_T qh = c - (c - q);
  precise X_T ql = q - qh;
  c = split * b;
  precise X_T bh = c - (c - b);
  precise X_T bl = b - bh;
  precise X_T p = q * b;
  precise X_T e = ((qh * bh - p) + qh * bl + ql * bh) + ql * bl;
  precise X_T r = (a - p) - e;
  return r;
}

// a / b rounded to nearest, as the CPU divides: Vulkan allows division a few
// ulps off, which truncation turns into an off-by-one quotient. Steps to the
// neighbour whose residual is smaller while one is.
X_T div_rn(X_T a, X_T b) {
  X_T q = a / b;
  if (isnan(q) || isinf(q) || q == X_T(0)) return q;
  for (int k = 0; k < 3; ++k) {
    X_T r = residual(a, q, b);
    bool larger = (r < X_T(0)) == (b < X_T(0));  // a / b > q: the neighbour toward +inf
#ifdef X_DT_F64
    uvec2 w = unpackDouble2x32(q);
    uint64_t bits = packUint2x32(w) + ((q > X_T(0)) == larger ? uint64_t(1) : uint64_t(-1));
    X_T next = packDouble2x32(unpackUint2x32(bits));
#else
    X_T next = intBitsToFloat(floatBitsToInt(q) + ((q > X_T(0)) == larger ? 1 : -1));
#endif
    if (r == X_T(0) || !(abs(residual(a, next, b)) < abs(r))) break;
    q = next;
  }
  return q;
}

#ifdef X_DT_F64
// math64.glsl's, within a few ulp.
X_T log1p_x(X_T x) { return m_log1p(x); }
X_T atan_x(X_T t) { return m_atan(t); }
X_T pow_positive(X_T x, X_T y) { return m_pow_positive(x, y); }
#else
// log(1 + x), accurate near x = 0 where log(1 + x) cancels: 2 atanh(x / (2 + x))
// as its series (|s| <= 1/3, 9 terms) for x in [-0.5, 1].
X_T log1p_x(X_T x) {
  if (!(x >= X_T(-0.5) && x <= X_T(1))) return log(X_T(1) + x);
  X_T s = x / (X_T(2) + x), s2 = s * s;
  X_T sum = X_T(1.0 / 19.0);
  for (int k = 8; k >= 0; --k) sum = sum * s2 + X_T(1) / X_T(2 * k + 1);
  return X_T(2) * s * sum;
}

// atan(y / x) in the right quadrant. The driver's atan may be tens of ulps
// off; this is Cephes' atanf (reduction by tan(pi/8) and tan(3pi/8), then a
// degree-9 odd polynomial; about 2 ulps).
X_T atan_x(X_T t) {
  X_T a = abs(t), base = X_T(0);
  if (a > X_T(2.414213562373095)) {
    base = X_T(1.5707963267948966);
    a = X_T(-1) / a;
  } else if (a > X_T(0.4142135623730950)) {
    base = X_T(0.7853981633974483);
    a = (a - X_T(1)) / (a + X_T(1));
  }
  X_T z = a * a;
  X_T p = (((X_T(8.05374449538e-2) * z - X_T(1.38776856032e-1)) * z + X_T(1.99777106478e-1)) * z -
           X_T(3.33329491539e-1)) * z * a + a;
  return copysign_x(base + p, t);
}

// |x|^n for a small integer n by repeated squaring: a few roundings, where
// exp2(n * log2(x)) loses n * log2(x) ulps.
X_T pow_small_int(X_T x, int n) {
  X_T result = X_T(1), base = x;
  for (uint e = uint(abs(n)); e != 0u; e >>= 1) {
    if ((e & 1u) != 0u) result *= base;
    base *= base;
  }
  return n < 0 ? X_T(1) / result : result;
}

// x^y for finite x > 0 and finite y.
X_T pow_positive(X_T x, X_T y) {
  return floor(y) == y && abs(y) <= X_T(64) ? pow_small_int(x, int(y)) : exp2(y * log2(x));
}
#endif

X_T atan2_x(X_T y, X_T x) {
  const X_T pi = X_T(3.14159265358979323846LF);
  if (isinf(x)) return x > X_T(0) ? copysign_x(X_T(0), y) : copysign_x(pi, y);  // y finite
  if (x == X_T(0)) return copysign_x(pi / X_T(2), y);                                // y nonzero
  X_T r = atan_x(y / x);
  if (x < X_T(0)) r += sign_bit(y) ? -pi : pi;
  return r;
}

// C's pow(x, y) with its special cases (GLSL's pow is undefined for x < 0).
X_T pow_x(X_T x, X_T y) {
  if (y == X_T(0) || x == X_T(1)) return X_T(1);
  if (isnan(x) || isnan(y)) return X_T(kNaN);
  X_T ax = abs(x);
  if (isinf(y)) return ax == X_T(1) ? X_T(1) : ((ax < X_T(1)) == (y < X_T(0)) ? X_T(kInf) : X_T(0));
  bool integral = floor(y) == y;
  // Integers past 2^53 (2^24 in float) are all even.
  bool odd = integral && abs(y) < X_T(9007199254740992.0) && (int64_t(y) & 1) != 0;
  if (ax == X_T(0) || isinf(ax)) {  // 0 or inf to a finite power: the sign of x only if y is odd
    X_T r = (ax == X_T(0)) == (y > X_T(0)) ? X_T(0) : X_T(kInf);
    return sign_bit(x) && odd ? -r : r;
  }
  if (x < X_T(0) && !integral) return X_T(kNaN);
  X_T r = pow_positive(ax, y);
  return sign_bit(x) && odd ? -r : r;
}
#elif !defined(X_DT_B8)
// Integer pow as c10's powi: negative exponents give 0 except for bases 1 and -1.
X_T powi_x(X_T a, X_T b) {
  if (b < X_T(0)) {
    if (a == X_T(1)) return X_T(1);
    if (a == X_T(-1)) return (b & X_T(1)) != X_T(0) ? X_T(-1) : X_T(1);
    return X_T(0);
  }
  X_T result = X_T(1);
  for (; b != X_T(0); b >>= 1) {
    if ((b & X_T(1)) != X_T(0)) result *= a;
    a *= a;
  }
  return result;
}

// The greatest common divisor as c10's calc_gcd: Euclid's algorithm on the
// magnitudes (gcd(0, 0) = 0).
X_T gcd_x(X_T a, X_T b) {
  a = abs(a);
  b = abs(b);
  while (a != X_T(0)) {
    X_T c = a;
    a = b % a;
    b = c;
  }
  return b;
}

// Truncating division; the host has ruled out b == 0, and MIN / -1 (which
// traps on some CPUs) wraps like the two's complement negation it is.
X_T div_trunc_x(X_T a, X_T b) { return b == X_T(-1) ? -a : a / b; }
X_T rem_trunc_x(X_T a, X_T b) { return a - div_trunc_x(a, b) * b; }
#endif
