// Math the GLSL library lacks. The functions named m_<name> are overloaded for
// float (16-bit floats compute in float too) and, in float64 variants, double:
// primitives per type here and in math64.glsl, everything built on them once in
// math_real.glsl.

// glslang folds these to the IEEE infinity and quiet NaN (0x7FC00000).
const float kInf = 1.0 / 0.0;
const float kNaN = 0.0 / 0.0;

const float kSqrt1_2 = 0.70710678118654752;
const float kSqrt2OverPi = 0.79788456080286536;

// Float primitives: the GLSL builtins where their domain is the whole line,
// with the out-of-domain results (undefined in GLSL) pinned to C's.
float m_exp(float x) { return exp(x); }
float m_exp2(float x) { return exp2(x); }
float m_log(float x) { return x < 0.0 ? kNaN : log(x); }
float m_log2(float x) { return x < 0.0 ? kNaN : log2(x); }
float m_atan(float x) { return isnan(x) ? x : atan(x); }  // lavapipe's atan(NaN) is 0

// sin, cos and tan: drivers' builtins are approximate (NVIDIA's sin and cos
// have ~1e-6 absolute error), so below 8192 they are reduced here: x = k pi/2
// + r, |r| <= pi/4, with Cody-Waite's three-part pi/2 (k times the first two
// parts is exact), then Cephes' minimax polynomials (~1 ulp).
float reduce_pio2(float x, out int quadrant) {
  float k = roundEven(x * 0.636619772367581343);
  quadrant = int(k) & 3;
  return ((x - k * 1.5703125) - k * 4.837512969970703125e-4) - k * 7.54978995489188216e-8;
}

float sin_reduced(float r) {
  float z = r * r;
  return r + r * z * ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1);
}

float cos_reduced(float r) {
  float z = r * r;
  return 1.0 - 0.5 * z + z * z * ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z + 4.166664568298827e-2);
}

float tan_reduced(float r) {
  float z = r * r;
  float p = 9.38540185543e-3;
  p = p * z + 3.11992232697e-3;
  p = p * z + 2.44301354525e-2;
  p = p * z + 5.34112807005e-2;
  p = p * z + 1.33387994085e-1;
  p = p * z + 3.33331568548e-1;
  return r + r * z * p;
}

float m_sin(float x) {
  if (abs(x) >= 8192.0) return sin(x);
  int q;
  float r = reduce_pio2(x, q);
  float v = (q & 1) == 0 ? sin_reduced(r) : cos_reduced(r);
  return q >= 2 ? -v : v;
}

float m_cos(float x) {
  if (abs(x) >= 8192.0) return cos(x);
  int q;
  float r = reduce_pio2(x, q);
  float v = (q & 1) == 0 ? cos_reduced(r) : sin_reduced(r);
  return (q == 1 || q == 2) ? -v : v;
}

float m_tan(float x) {
  if (abs(x) >= 8192.0) return tan(x);
  int q;
  float t = tan_reduced(reduce_pio2(x, q));
  return (q & 1) == 0 ? t : -1.0 / t;
}

// exp(x) - 1: exp(x) - 1 loses the low bits of small results, so |x| < 0.35
// takes the Taylor series (remainder below 1e-8 relative).
float m_expm1(float x) {
  if (abs(x) >= 0.35) return exp(x) - 1.0;
  float p = 1.0 / 40320.0;
  p = p * x + 1.0 / 5040.0;
  p = p * x + 1.0 / 720.0;
  p = p * x + 1.0 / 120.0;
  p = p * x + 1.0 / 24.0;
  p = p * x + 1.0 / 6.0;
  p = p * x + 0.5;
  return x + x * x * p;
}

// log(1 + x): 1 + x rounds away the low bits of small x, so near 0 this uses
// log(1 + x) = 2 atanh(s), s = x / (2 + x), whose series converges fast.
float m_log1p(float x) {
  if (x < -0.29 || x > 0.41) return m_log(1.0 + x);
  float s = x / (2.0 + x);
  float z = s * s;
  float p = 2.0 / 11.0;
  p = p * z + 2.0 / 9.0;
  p = p * z + 2.0 / 7.0;
  p = p * z + 2.0 / 5.0;
  p = p * z + 2.0 / 3.0;
  return 2.0 * s + s * z * p;
}

bool m_signbit(float x) { return (floatBitsToUint(x) >> 31) != 0u; }

// x with the low 12 mantissa bits cleared (fdlibm's erfc splits x this way).
float m_high_bits(float x) { return uintBitsToFloat(floatBitsToUint(x) & 0xFFFFF000u); }

#define R float
#define C(x) R(x)
#include "common/math_real.glsl"
#undef R
#undef C

#ifdef USES_F64
#include "common/math64.glsl"
#endif

float sigmoid_f(float x) { return 1.0 / (1.0 + exp(-x)); }

// Numerically stable log(1 + exp(x)).
float softplus_f(float x) { return max(x, 0.0) + log(1.0 + exp(-abs(x))); }

float erf_f(float x) { return m_erf(x); }

float gelu_f(float x) { return 0.5 * x * (1.0 + erf_f(x * kSqrt1_2)); }
float gelu_tanh_f(float x) {
  float inner = kSqrt2OverPi * (x + 0.044715 * x * x * x);
  return 0.5 * x * (1.0 + tanh(inner));
}
