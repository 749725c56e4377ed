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
// e^x = e^r 2^k, k = round(x log2 e), r = x - k ln2 with ln2 in two parts
// (Cody and Waite; k ln2_hi is exact for |k| < 256). Drivers compute exp as
// 2^(x log2 e), whose rounded product costs about |x| log2 e ulp (Vulkan
// allows 3 + 2|x|): NVIDIA's was 2.2e-6 relative at x = -30, where the
// scaled Bessel functions' tests failed. Outside |x| < 86 (overflow,
// results near the subnormals, infinities, NaN) the builtin's own answer.
float m_exp(float x) {
  if (!(abs(x) < 86.0)) return exp(x);
  float k = roundEven(x * 1.44269504);
  float r = (x - k * 0.693145752) - k * 1.42860677e-6;
  return ldexp(exp(r), int(k));
}
float m_exp2(float x) { return exp2(x); }
// Positive subnormals are their bits times 2^-149, read as an integer:
// drivers' log may flush them (lavapipe's gave -88.0 for 5.6e-45, whose log
// is -101.9), and so would a scaling product on a driver that flushes.
bool positive_subnormal(float x) { return floatBitsToUint(x) - 1u < 0x7FFFFFu; }
float m_log(float x) {
  if (positive_subnormal(x)) return log(float(floatBitsToUint(x))) - 103.278929903;
  return x < 0.0 ? kNaN : log(x);
}
float m_log2(float x) {
  if (positive_subnormal(x)) return log2(float(floatBitsToUint(x))) - 149.0;
  return x < 0.0 ? kNaN : log2(x);
}

// atan written out: drivers' builtin is approximate (lavapipe's is ~20 ulp
// off, which acos and asin inherit; Vulkan requires no better) and gives 0
// for NaN. As math64.glsl's: |x| > 1 through pi/2 - atan(1/x), two
// half-angle steps t -> t / (1 + sqrt(1 + t^2)) to |t| <= tan(pi/16), then
// atan's Taylor series to t^11 (below float precision there), times 4.
float m_atan(float x) {
  if (isnan(x)) return x;
  float a = abs(x);
  bool invert = a > 1.0;
  float t = invert ? 1.0 / a : a;
  t = t / (1.0 + sqrt(1.0 + t * t));
  t = t / (1.0 + sqrt(1.0 + t * t));
  float z = t * t;
  float p = ((((1.0 / 11.0) * z - 1.0 / 9.0) * z + 1.0 / 7.0) * z - 1.0 / 5.0) * z + 1.0 / 3.0;
  float r = 4.0 * (t - t * z * p);
  if (invert) r = (1.57079637 - r) - 4.37113900e-8;  // pi/2 as a float, less its excess
  return x < 0.0 ? -r : (x == 0.0 ? x : r);  // atan(-0) is -0
}

// sin, cos and tan: drivers' builtins are approximate (NVIDIA's sin and cos
// have ~1e-6 absolute error), so they are written out: x = k pi/2 + r,
// |r| <= pi/4, below 8192 with Cody-Waite's three-part pi/2 (k times the
// first two parts is exact), beyond with Payne-Hanek; then Cephes' minimax
// polynomials (~1 ulp).
// Payne-Hanek reduction for arguments too large for Cody-Waite: x = m 2^e
// (m < 2^53, as m_hi:m_lo) times 2/pi, modulo 4, from the 160 bits of 2/pi
// that matter for this e. Returns the quadrant (0..3) and, in f_hi:f_lo, the
// fraction as a 128-bit fixed-point number in [0, 1/2], with `negative` set
// when it is to be subtracted (the fraction was >= 1/2; the quadrant is the
// next one).
const uint kTwoOverPiBits[40] = uint[](  // 2/pi in binary, after 64 zero bits
    0x00000000u, 0x00000000u, 0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u, 0xDB629599u,
    0x3C439041u, 0xFE5163ABu, 0xDEBBC561u, 0xB7246E3Au, 0x424DD2E0u, 0x06492EEAu, 0x09D1921Cu,
    0xFE1DEB1Cu, 0xB129A73Eu, 0xE88235F5u, 0x2EBB4484u, 0xE99C7026u, 0xB45F7E41u, 0x3991D639u,
    0x835339F4u, 0x9C845F8Bu, 0xBDF9283Bu, 0x1FF897FFu, 0xDE05980Fu, 0xEF2F118Bu, 0x5A0A6D1Fu,
    0x6D367ECFu, 0x27CB09B7u, 0x4F463F66u, 0x9E5FEA2Du, 0x7527BAC7u, 0xEBE5F17Bu, 0x3D0739F7u,
    0x8A5292EAu, 0x6BFB5FB1u, 0x1F8D5D08u, 0x56033046u, 0xFC7B6BABu);

int reduce_pio2_bits(uint m_hi, uint m_lo, int e, out bool negative, out uint64_t f_hi,
                     out uint64_t f_lo) {
  // Bits b_i (weight 2^-i) of 2/pi with i < e - 1 make multiples of 4; the
  // window W starts at b_(e-1), table position e - 1 + 63, so that
  // x 2/pi mod 4 = m W / 2^158 mod 4.
  int p = e + 62;
  int q = p >> 5, s = p & 31;
  uint w[5];  // least significant first
  for (int k = 0; k < 5; ++k) {
    uint a = kTwoOverPiBits[q + k], b = kTwoOverPiBits[q + k + 1];
    w[4 - k] = s == 0 ? a : (a << s) | (b >> (32 - s));
  }
  uint64_t acc[7] = uint64_t[](0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul);
  for (int k = 0; k < 5; ++k) {
    uint64_t lo = uint64_t(m_lo) * w[k], hi = uint64_t(m_hi) * w[k];
    acc[k] += lo & 0xFFFFFFFFul;
    acc[k + 1] += (lo >> 32) + (hi & 0xFFFFFFFFul);
    acc[k + 2] += hi >> 32;
  }
  uint r[7];
  uint64_t carry = 0ul;
  for (int k = 0; k < 7; ++k) {
    carry += acc[k];
    r[k] = uint(carry);
    carry >>= 32;
  }
  int quadrant = int(r[4] >> 30);
  f_hi = (uint64_t(r[4] & 0x3FFFFFFFu) << 34) | (uint64_t(r[3]) << 2) | uint64_t(r[2] >> 30);
  f_lo = (uint64_t(r[2] & 0x3FFFFFFFu) << 34) | (uint64_t(r[1]) << 2) | uint64_t(r[0] >> 30);
  negative = (f_hi >> 63) != 0ul;
  if (negative) {  // 1 - fraction, as a 128-bit two's complement
    f_lo = ~f_lo + 1ul;
    f_hi = ~f_hi + (f_lo == 0ul ? 1ul : 0ul);
    quadrant = (quadrant + 1) & 3;
  }
  return quadrant;
}

// Leading zeros of a 64-bit value (64 for 0).
int clz64(uint64_t v) {
  uint hi = uint(v >> 32);
  return hi != 0u ? 31 - findMSB(hi) : 63 - findMSB(uint(v));
}

// Shifts f_hi:f_lo left until bit 127 is set; returns the shift.
int normalize128(inout uint64_t f_hi, inout uint64_t f_lo) {
  int shift = 0;
  if (f_hi == 0ul) {
    f_hi = f_lo;
    f_lo = 0ul;
    shift = 64;
  }
  int lz = min(clz64(f_hi), 63);
  if (lz > 0) {
    f_hi = (f_hi << lz) | (f_lo >> (64 - lz));
    f_lo <<= lz;
  }
  return shift + lz;
}

float reduce_pio2_large(float x, out int quadrant) {
  uint bits = floatBitsToUint(abs(x));
  bool negative;
  uint64_t f_hi, f_lo;
  int e = int(bits >> 23) - 150;
  quadrant = reduce_pio2_bits(0u, (bits & 0x7FFFFFu) | 0x800000u, e, negative, f_hi, f_lo);
  int shift = normalize128(f_hi, f_lo);
  float r = ldexp(float(uint(f_hi >> 40)), -24 - shift) * 1.57079632679489662;
  if (negative) r = -r;
  if (x < 0.0) {
    quadrant = (4 - quadrant) & 3;
    r = -r;
  }
  return r;
}

float reduce_pio2(float x, out int quadrant) {
  if (abs(x) >= 8192.0) return reduce_pio2_large(x, quadrant);
  float k = roundEven(x * 0.636619772367581343);
  quadrant = int(k) & 3;
  precise float r = ((x - k * 1.5703125) - k * 4.837512969970703125e-4) - k * 7.54978995489188216e-8;
  return r;
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
  if (isinf(x)) return kNaN;
  int q;
  float r = reduce_pio2(x, q);
  float v = (q & 1) == 0 ? sin_reduced(r) : cos_reduced(r);
  return q >= 2 ? -v : v;
}

float m_cos(float x) {
  if (isinf(x)) return kNaN;
  int q;
  float r = reduce_pio2(x, q);
  float v = (q & 1) == 0 ? cos_reduced(r) : sin_reduced(r);
  return (q == 1 || q == 2) ? -v : v;
}

float m_tan(float x) {
  if (isinf(x)) return kNaN;
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

// erf in float with no division and at most one exp2 (fdlibm's, which
// math_real.glsl keeps for double, takes a division and up to two exps, on
// three branches that real data all visit): x + x P(x^2) below 0.9, then
// 1 - 2^Q(|x|) until erf rounds to 1 at 3.92. scripts/fit_erf.py made the
// coefficients and measures 1.04 ulp at most in float32 with fused
// multiply-adds. NaN takes the exp2 branch and stays NaN.
float m_erf(float x) {
  float a = abs(x);
  if (a < 0.9) {
    float z = x * x;
    float p = -0.0006090355;
    p = p * z + 0.005011962;
    p = p * z - 0.026778908;
    p = p * z + 0.11282141;
    p = p * z - 0.37612525;
    p = p * z + 0.12837915;
    return x + x * p;
  }
  float r = 1.0;
  if (!(a >= 3.92)) {
    float q = 1.6025188e-06;
    q = q * a - 2.5770256e-05;
    q = q * a + 0.00014918631;
    q = q * a - 8.5886546e-05;
    q = q * a - 0.0042423895;
    q = q * a + 0.033358917;
    q = q * a - 0.15316707;
    q = q * a - 0.9157558;
    q = q * a - 1.6287735;
    q = q * a + 0.00012398706;
    r = 1.0 - exp2(q);
  }
  return x < 0.0 ? -r : r;
}
#define R_HAS_ERF 1

#define R float
#define C(x) R(x)
#include "common/math_real.glsl"
#undef R
#undef C
#undef R_HAS_ERF

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
