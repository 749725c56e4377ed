// The op of a binary variant (OP_<name>), on X's compute type. Scalar
// parameters (alpha, a lerp weight) arrive as X_SCALAR(k). Integer divisors
// were checked on the host: the shader never sees b == 0 for an integer op.
#include "elementwise/pointwise_math.glsl"
#include "elementwise/rounding.glsl"

#if defined(OP_add)
X_T op(X_T a, X_T b) { return a + X_SCALAR(0) * b; }
#elif defined(OP_add_relu)
// ATen's add_clamp: a + alpha b in the dtype (narrow integers wrap first, as
// the CPU's cast does), clamped to [0, X_SCALAR(1)], the largest value of
// self's dtype, so inf becomes the largest finite float. NaN stays NaN, as
// in the CPU's vectorized loop (its scalar loop, for a few last elements,
// gives 0).
X_T op(X_T a, X_T b) {
  X_T s = a + X_SCALAR(0) * b;
#if defined(X_DT_I8) || defined(X_DT_I16)
  s = X_from_bits(uint(s));
#endif
#ifdef X_FLOAT
  if (isnan(s)) return s;
#endif
  return min(max(s, X_T(0)), X_SCALAR(1));
}
#elif defined(OP_sub)
X_T op(X_T a, X_T b) { return a - X_SCALAR(0) * b; }
#elif defined(OP_mul)
X_T op(X_T a, X_T b) { return a * b; }
#elif defined(OP_div)
X_T op(X_T a, X_T b) { return a / b; }
#elif defined(OP_div_trunc) && defined(X_FLOAT)
X_T op(X_T a, X_T b) {
  X_T q = div_rn(a, b);
  // ATen's vectorized kernel rounds the quotient to the 16-bit type first.
#if defined(X_DT_BF16)
  q = uintBitsToFloat(f32_to_bf16_bits(q) << 16);
#elif defined(X_DT_F16)
  q = unpackHalf2x16(f32_to_f16_bits(q)).x;
#endif
  return trunc_x(q);
}
#elif defined(OP_div_trunc)
X_T op(X_T a, X_T b) { return div_trunc_x(a, b); }
#elif defined(OP_div_floor) && defined(X_FLOAT)
// As c10::div_floor_floating: the quotient of a - fmod(a, b), floored, and
// rounded where that division is inexact.
X_T op(X_T a, X_T b) {
  if (b == X_T(0)) return a / b;
  X_T m = fmod_x(a, b);
  X_T q = (a - m) / b;
  if (m != X_T(0) && (b < X_T(0)) != (m < X_T(0))) q -= X_T(1);
  if (q == X_T(0)) return copysign_x(X_T(0), a / b);
  X_T f = floor(q);
  return q - f > X_T(0.5) ? f + X_T(1) : f;
}
#elif defined(OP_div_floor)
X_T op(X_T a, X_T b) {
  X_T q = div_trunc_x(a, b);
  return (a < X_T(0)) != (b < X_T(0)) && q * b != a ? q - X_T(1) : q;
}
#elif defined(OP_fmod) && defined(X_FLOAT)
X_T op(X_T a, X_T b) { return fmod_x(a, b); }
#elif defined(OP_fmod)
X_T op(X_T a, X_T b) { return rem_trunc_x(a, b); }
#elif defined(OP_remainder)  // Python's %: the result takes the divisor's sign
X_T op(X_T a, X_T b) {
#ifdef X_FLOAT
  X_T r = fmod_x(a, b);
#else
  X_T r = rem_trunc_x(a, b);
#endif
  return r != X_T(0) && (r < X_T(0)) != (b < X_T(0)) ? r + b : r;
}
#elif defined(OP_logical_or)  // bool add/mul: PyTorch's bool arithmetic
X_T op(X_T a, X_T b) { return a || (X_SCALAR(0) && b); }
#elif defined(OP_logical_and)
X_T op(X_T a, X_T b) { return a && b; }
#elif defined(OP_maximum)
// NaN wins; of 0 and -0, 0 (IEEE 754-2019's maximum). GLSL's max leaves the
// zeros open (NVIDIA and lavapipe differ), and so does the CPU: its scalar
// loop returns a, its vector loop b.
X_T op(X_T a, X_T b) { return isnan(a) || isnan(b) ? a + b : (a == b ? (sign_bit(a) ? b : a) : max(a, b)); }
#elif defined(OP_minimum)  // NaN wins; of 0 and -0, -0
X_T op(X_T a, X_T b) { return isnan(a) || isnan(b) ? a + b : (a == b ? (sign_bit(a) ? a : b) : min(a, b)); }
#elif defined(OP_maximum_int)
X_T op(X_T a, X_T b) { return max(a, b); }
#elif defined(OP_minimum_int)
X_T op(X_T a, X_T b) { return min(a, b); }
#elif defined(OP_fmax)  // NaN loses; of equal values (0 and -0) a wins, as in C's fmax
X_T op(X_T a, X_T b) { return isnan(a) ? b : (isnan(b) || !(a < b) ? a : b); }
#elif defined(OP_fmin)
X_T op(X_T a, X_T b) { return isnan(a) ? b : (isnan(b) || !(b < a) ? a : b); }
#elif defined(OP_bitwise_and) && defined(X_DT_B8)
X_T op(X_T a, X_T b) { return a && b; }
#elif defined(OP_bitwise_or) && defined(X_DT_B8)
X_T op(X_T a, X_T b) { return a || b; }
#elif defined(OP_bitwise_xor) && defined(X_DT_B8)
X_T op(X_T a, X_T b) { return a != b; }
#elif defined(OP_bitwise_and)
X_T op(X_T a, X_T b) { return a & b; }
#elif defined(OP_bitwise_or)
X_T op(X_T a, X_T b) { return a | b; }
#elif defined(OP_bitwise_xor)
X_T op(X_T a, X_T b) { return a ^ b; }
#elif defined(OP_lshift)  // shifts by a negative count or past the width give 0
X_T op(X_T a, X_T b) {
  // Narrow types compute in int: a count past their width still shifts in int.
  return b < X_T(0) || b >= X_T(X_BYTES * 8) ? X_T(0) : a << b;
}
#elif defined(OP_rshift)  // ... and keep only the sign past the width
X_T op(X_T a, X_T b) {
#ifdef X_SIGNED
  const X_T width = X_T(X_BYTES * 8 - 1);
#else
  const X_T width = X_T(X_BYTES * 8);
#endif
  return b < X_T(0) || b >= width ? (a < X_T(0) ? X_T(-1) : X_T(0)) : a >> b;
}
#elif defined(OP_atan2)  // GLSL leaves zeros and infinite pairs undefined; C defines them
X_T op(X_T y, X_T x) {
  const X_T pi = X_T(3.14159265358979323846LF);
  if (isnan(y) || isnan(x)) return y + x;
  if (y == X_T(0) && x == X_T(0)) return copysign_x(sign_bit(x) ? pi : X_T(0), y);
  if (isinf(y) && isinf(x)) return copysign_x(x > X_T(0) ? pi / X_T(4) : X_T(3) * pi / X_T(4), y);
  return atan2_x(y, x);
}
#elif defined(OP_hypot)  // scaled so that squares neither overflow nor underflow
X_T op(X_T a, X_T b) {
  a = abs(a);
  b = abs(b);
  if (isinf(a) || isinf(b)) return X_T(kInf);
  X_T hi = max(a, b), lo = min(a, b);
  if (isnan(a) || isnan(b)) return a + b;
  if (hi == X_T(0)) return hi;
  X_T r = lo / hi;
  return hi * sqrt(X_T(1) + r * r);
}
#elif defined(OP_copysign)
X_T op(X_T a, X_T b) { return copysign_x(a, b); }
#elif defined(OP_heaviside) && defined(X_DT_B8)
X_T op(X_T a, X_T b) { return a || b; }
#elif defined(OP_heaviside)
X_T op(X_T a, X_T b) { return a == X_T(0) ? b : X_T(a > X_T(0)); }
#elif defined(OP_xlogy)
X_T op(X_T a, X_T b) {
  if (isnan(b)) return b;
  return a == X_T(0) ? X_T(0) : a * m_log(b);
}
#elif defined(OP_logaddexp)
X_T op(X_T a, X_T b) {
  if (isinf(a) && a == b) return a;
  return max(a, b) + log1p_x(m_exp(-abs(a - b)));
}
#elif defined(OP_logaddexp2)
X_T op(X_T a, X_T b) {
  if (isinf(a) && a == b) return a;
  return max(a, b) + log1p_x(m_exp2(-abs(a - b))) * X_T(1.44269504088896340736LF);
}
#elif defined(OP_pow) && defined(X_FLOAT)
X_T op(X_T a, X_T b) { return pow_x(a, b); }
#elif defined(OP_pow)
X_T op(X_T a, X_T b) { return powi_x(a, b); }
#elif defined(OP_lerp)  // scalar weight; as at::lerp, exact at both ends
X_T op(X_T a, X_T b) {
  X_T w = X_SCALAR(0);
  return abs(w) < X_T(0.5) ? a + w * (b - a) : b - (b - a) * (X_T(1) - w);
}
#elif defined(OP_nextafter)
// C's nextafter on the bits: finite floats of one sign are ordered like
// their bit patterns, so the neighbour of a toward b is a's magnitude bits
// plus or minus one. Zeros and comparisons
// are bits too: a driver that flushes float32 subnormals would take them for
// zeros. 16-bit floats compute in float but step in their own bits.
#if defined(X_DT_F64)
#define X_BITS_T uint64_t
uint64_t x_bits(double x) { return packUint2x32(unpackDouble2x32(x)); }
double x_of_bits(uint64_t b) { return packDouble2x32(unpackUint2x32(b)); }
#elif defined(X_DT_F32)
#define X_BITS_T uint
uint x_bits(float x) { return floatBitsToUint(x); }
float x_of_bits(uint b) { return uintBitsToFloat(b); }
#elif defined(X_DT_BF16)
#define X_BITS_T uint
uint x_bits(float x) { return floatBitsToUint(x) >> 16; }  // exact: x is a bfloat16
float x_of_bits(uint b) { return uintBitsToFloat(b << 16); }
#else
#define X_BITS_T uint
uint x_bits(float x) { return f32_to_f16_bits(x); }  // exact: x is a half
float x_of_bits(uint b) { return unpackHalf2x16(b).x; }
#endif
X_T op(X_T a, X_T b) {
  if (isnan(a) || isnan(b)) return a + b;
  X_BITS_T x = x_bits(a), y = x_bits(b);
  if (x == y) return b;
  const X_BITS_T sign = X_BITS_T(1) << (X_BYTES * 8 - 1);
  X_BITS_T ax = x & ~sign, ay = y & ~sign;
  if (ax == X_BITS_T(0)) {
    if (ay == X_BITS_T(0)) return b;  // 0 and -0: b
    x = (y & sign) | X_BITS_T(1);     // the smallest subnormal on b's side
  } else if (ax > ay || ((x ^ y) & sign) != X_BITS_T(0)) {
    x -= X_BITS_T(1);  // toward zero
  } else {
    x += X_BITS_T(1);
  }
  return x_of_bits(x);
}
#elif defined(OP_gcd)
X_T op(X_T a, X_T b) { return gcd_x(a, b); }
#elif defined(OP_lcm)  // as c10's calc_lcm: |a / gcd * b|, 0 when both are 0
X_T op(X_T a, X_T b) {
  X_T g = gcd_x(a, b);
  return g == X_T(0) ? X_T(0) : abs(a / g * b);
}
#else
#error "binary: unknown op"
#endif
