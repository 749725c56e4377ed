// Helpers the binary, scalar and ternary ops share, written once on the
// variant's compute type X_T (float, double, int, int64_t or bool).
#if defined(X_DT_F16) || defined(X_DT_BF16) || defined(X_DT_F32) || defined(X_DT_F64)
#define X_FLOAT 1
#endif
#if defined(X_DT_I8) || defined(X_DT_I16) || defined(X_DT_I32) || defined(X_DT_I64)
#define X_SIGNED 1
#endif

#ifdef X_FLOAT
// Quiet NaN from its bits: an expression such as 0.0 / 0.0 may be folded away.
#ifdef X_DT_F64
#define kNaN packDouble2x32(uvec2(0u, 0x7FF80000u))
#define kInf packDouble2x32(uvec2(0u, 0x7FF00000u))
#else
#define kNaN uintBitsToFloat(0x7FC00000u)
#define kInf uintBitsToFloat(0x7F800000u)
#endif

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
// floor(a / b), is not.
X_T fmod_x(X_T a, X_T b) {
  if (isnan(a) || isnan(b) || isinf(a) || b == X_T(0)) return kNaN;
  X_T r = abs(a), d = abs(b);
  if (r < d) return a;  // also b = +-inf
  int er, ed;
  frexp(r, er);
  frexp(d, ed);
  for (int k = er - ed; k >= 0; --k) {
    X_T s = ldexp(d, k);
    if (r >= s) r -= s;
  }
  return sign_bit(a) ? -r : r;
}

#ifndef X_DT_F64  // needs log and exp2 in double
// log(1 + x) without losing x when it is tiny (Goldberg's correction).
X_T log1p_x(X_T x) {
  X_T u = X_T(1) + x;
  return u == X_T(1) ? x : log(u) * (x / (u - X_T(1)));
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

// C's pow(x, y) with its special cases (GLSL's pow is undefined for x < 0).
X_T pow_x(X_T x, X_T y) {
  if (y == X_T(0) || x == X_T(1)) return X_T(1);
  if (isnan(x) || isnan(y)) return kNaN;
  X_T ax = abs(x);
  if (isinf(y)) return ax == X_T(1) ? X_T(1) : ((ax < X_T(1)) == (y < X_T(0)) ? kInf : X_T(0));
  bool integral = floor(y) == y;
  if (x < X_T(0) && !integral) return kNaN;
  // Integers past 2^53 (2^24 in float) are all even.
  bool odd = integral && abs(y) < X_T(9007199254740992.0) && (int64_t(y) & 1) != 0;
  X_T r = integral && abs(y) <= X_T(64) ? pow_small_int(ax, int(y)) : exp2(y * log2(ax));
  return sign_bit(x) && odd ? -r : r;
}
#endif
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

// Truncating division; the host has ruled out b == 0, and MIN / -1 (which
// traps on some CPUs) wraps like the two's complement negation it is.
X_T div_trunc_x(X_T a, X_T b) { return b == X_T(-1) ? -a : a / b; }
X_T rem_trunc_x(X_T a, X_T b) { return a - div_trunc_x(a, b) * b; }
#endif
