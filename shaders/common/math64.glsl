// Double-precision primitives. GLSL (and SPIR-V's GLSL.std.450) has no double
// exp, log or trigonometry, so these are written out: an exact argument
// reduction, then a series short enough on the reduced range to stay
// within a few ulp (~1e-15 relative). Included by math.glsl under USES_F64.

// Vulkan does not promise a fused fma, so argument reductions use fdlibm's
// constant splits instead: the leading parts have trailing zero bits, so k
// times them is exact for the k that occur. The reductions are `precise`:
// compilers (Mesa's NIR, for one) may otherwise refactor a - b c - b d into
// a - b (c + d) and lose the exactness.
// pi/2 = _1 + _2 + _3 to ~120 bits; _1 and _2 have 33 bits each.
const double kPio2_1 = 1.57079632673412561417e+00LF;
const double kPio2_2 = 6.07710050630396597660e-11LF;
const double kPio2_3 = 2.02226624879595063154e-21LF;
const double kPio2 = 1.5707963267948966LF;  // pi/2 = kPio2 + kPio2Lo
const double kPio2Lo = 6.123233995736766e-17LF;
const double kLn2Hi = 6.93147180369123816490e-01LF;  // ln 2 = hi + lo, hi 32 bits
const double kLn2Lo = 1.90821492927058770002e-10LF;

bool m_signbit(double x) { return (unpackDouble2x32(x).y >> 31) != 0u; }

// x with the low 32 mantissa bits cleared (fdlibm's erfc splits x this way).
double m_high_bits(double x) { return packDouble2x32(uvec2(0u, unpackDouble2x32(x).y)); }

// x * 2^k in two steps, so a result that is subnormal, or a 2^k that alone
// would overflow, still comes out right.
double scale2(double x, int k) {
  int half_k = k / 2;
  return ldexp(ldexp(x, half_k), k - half_k);
}

// e^r - 1 for |r| <= ln2 / 2 + tiny: Taylor series through r^17 (the next term
// is below 2^-60 of the result).
double expm1_reduced(double r) {
  double p = 2.8114572543455206e-15LF;
  p = p * r + 4.779477332387385e-14LF;
  p = p * r + 7.647163731819816e-13LF;
  p = p * r + 1.1470745597729725e-11LF;
  p = p * r + 1.6059043836821613e-10LF;
  p = p * r + 2.08767569878681e-09LF;
  p = p * r + 2.505210838544172e-08LF;
  p = p * r + 2.755731922398589e-07LF;
  p = p * r + 2.7557319223985893e-06LF;
  p = p * r + 2.48015873015873e-05LF;
  p = p * r + 0.0001984126984126984LF;
  p = p * r + 0.001388888888888889LF;
  p = p * r + 0.008333333333333333LF;
  p = p * r + 0.041666666666666664LF;
  p = p * r + 0.16666666666666666LF;
  p = p * r + 0.5LF;
  return r + r * r * p;
}

// e^(x + lo) for a tiny correction lo (an argument carried in two parts)
// = 2^k e^r with r = x - k ln2 + lo (k ln2_hi exact for |k| < 2^11).
double exp_parts(double x, double lo) {
  if (isnan(x)) return x;
  if (x > 709.782712893384LF) return double(kInf);
  if (x < -745.1332191019412LF) return 0.0LF;
  double k = roundEven(x * 1.4426950408889634LF);
  precise double r = ((x - k * kLn2Hi) - k * kLn2Lo) + lo;
  return scale2(1.0LF + expm1_reduced(r), int(k));
}

double m_exp(double x) { return exp_parts(x, 0.0LF); }

// 2^x = 2^k e^((x - k) ln2), x - k exact.
double m_exp2(double x) {
  if (isnan(x)) return x;
  if (x >= 1024.0LF) return double(kInf);
  if (x < -1075.0LF) return 0.0LF;
  double k = roundEven(x);
  double f = x - k;
  return scale2(1.0LF + expm1_reduced(f * 0.6931471805599453LF), int(k));
}

// Small |x| straight from the series; elsewhere e^x - 1 loses at most ~3 ulp.
double m_expm1(double x) {
  if (abs(x) <= 0.34657359027997264LF) return expm1_reduced(x);
  if (x < -40.0LF) return -1.0LF;
  return m_exp(x) - 1.0LF;
}

// log((1 + s) / (1 - s)) - 2s = 2 atanh(s) - 2s for |s| <= 0.1716 (3 - 2 sqrt 2):
// odd series through s^25.
double log_ratio_tail(double s) {
  double z = s * s;
  double p = 2.0LF / 25.0LF;
  p = p * z + 2.0LF / 23.0LF;
  p = p * z + 2.0LF / 21.0LF;
  p = p * z + 2.0LF / 19.0LF;
  p = p * z + 2.0LF / 17.0LF;
  p = p * z + 2.0LF / 15.0LF;
  p = p * z + 2.0LF / 13.0LF;
  p = p * z + 2.0LF / 11.0LF;
  p = p * z + 2.0LF / 9.0LF;
  p = p * z + 2.0LF / 7.0LF;
  p = p * z + 2.0LF / 5.0LF;
  p = p * z + 2.0LF / 3.0LF;
  return s * z * p;
}

double log_ratio(double s) { return 2.0LF * s + log_ratio_tail(s); }

// log x = e ln2 + log m with m in [sqrt(1/2), sqrt(2)) and log m = 2 atanh((m - 1) / (m + 1)).
double m_log(double x) {
  if (isnan(x) || x < 0.0LF) return double(kNaN);
  if (x == 0.0LF) return -double(kInf);
  if (isinf(x)) return x;
  int e;
  double m = frexp(x, e);
  if (m < 0.7071067811865476LF) {
    m *= 2.0LF;
    e -= 1;
  }
  double f = m - 1.0LF;  // exact
  double k = double(e);
  precise double result = k * kLn2Hi + (log_ratio(f / (2.0LF + f)) + k * kLn2Lo);
  return result;
}

double m_log2(double x) { return m_log(x) * 1.4426950408889634LF; }

// a + b = sum + err and a b = product + err exactly (Knuth's two-sum, Dekker's
// product: Vulkan promises no fused fma). The product's split overflows past
// |a|, |b| ~ 1e300. Every step is `precise`, the error terms too: compilers
// would otherwise simplify them to 0.
double two_sum(double a, double b, out double err) {
  precise double sum = a + b;
  precise double bb = sum - a;
  precise double e = (a - (sum - bb)) + (b - bb);
  err = e;
  return sum;
}

double two_prod(double a, double b, out double err) {
  const double split = 134217729.0LF;  // 2^27 + 1
  precise double product = a * b;
  precise double c = split * a;
  precise double ah = c - (c - a);
  precise double al = a - ah;
  c = split * b;
  precise double bh = c - (c - b);
  precise double bl = b - bh;
  precise double e = ((ah * bh - product) + ah * bl + al * bh) + al * bl;
  err = e;
  return product;
}

// log x = hi + lo to ~2^-60 relative for finite x > 0, as m_log with the
// rounding of s = f / (2 + f) and of the sums kept in lo.
double log_parts(double x, out double lo) {
  int e;
  double m = frexp(x, e);
  if (m < 0.7071067811865476LF) {
    m *= 2.0LF;
    e -= 1;
  }
  precise double f = m - 1.0LF;  // exact
  precise double d = 2.0LF + f;
  precise double d_lo = f - (d - 2.0LF);  // 2 + f = d + d_lo
  double s = f / d, p_err;
  precise double p = two_prod(s, d, p_err);
  precise double s_lo = (((f - p) - p_err) - s * d_lo) / d;  // f - p is exact
  double k = double(e), sum_err;
  precise double hi = two_sum(k * kLn2Hi, 2.0LF * s, sum_err);  // both terms exact
  precise double rest = sum_err + ((log_ratio_tail(s) + 2.0LF * s_lo) + k * kLn2Lo);
  return two_sum(hi, rest, lo);
}

// x^y for finite x > 0 and finite y: e^(y log x) with log x and the product
// carried in two parts, so that the result stays within a few ulp however
// large y log x is (one part alone loses |y log x| ulp).
double m_pow_positive(double x, double y) {
  double log_lo, t_lo;
  double t = two_prod(y, log_parts(x, log_lo), t_lo);
  if (!(abs(t) < 746.0LF)) return t > 0.0LF ? double(kInf) : 0.0LF;  // t_lo may be NaN here
  return exp_parts(t, t_lo + y * log_lo);
}

// Near 0 the ratio x / (2 + x) keeps every bit of x; elsewhere 1 + x is
// corrected by the part of x its rounding lost.
double m_log1p(double x) {
  if (x > -0.2928932188134524LF && x < 0.41421356237309503LF) return log_ratio(x / (2.0LF + x));
  if (x <= -1.0LF) return x == -1.0LF ? -double(kInf) : double(kNaN);
  if (isinf(x)) return x;
  double u = 1.0LF + x;
  precise double lost = x - (u - 1.0LF);
  return m_log(u) + lost / u;
}

// sin and cos on |r| <= pi/4 (Taylor series through r^23 and r^22).
double sin_reduced(double r) {
  double z = r * r;
  double p = 3.8681701706306835e-23LF;
  p = p * z - 1.9572941063391263e-20LF;
  p = p * z + 8.22063524662433e-18LF;
  p = p * z - 2.8114572543455206e-15LF;
  p = p * z + 7.647163731819816e-13LF;
  p = p * z - 1.6059043836821613e-10LF;
  p = p * z + 2.505210838544172e-08LF;
  p = p * z - 2.7557319223985893e-06LF;
  p = p * z + 0.0001984126984126984LF;
  p = p * z - 0.008333333333333333LF;
  p = p * z + 0.16666666666666666LF;
  return r - r * z * p;
}

double cos_reduced(double r) {
  double z = r * r;
  double p = 8.896791392450574e-22LF;
  p = p * z - 4.110317623312165e-19LF;
  p = p * z + 1.5619206968586225e-16LF;
  p = p * z - 4.779477332387385e-14LF;
  p = p * z + 1.1470745597729725e-11LF;
  p = p * z - 2.08767569878681e-09LF;
  p = p * z + 2.755731922398589e-07LF;
  p = p * z - 2.48015873015873e-05LF;
  p = p * z + 0.001388888888888889LF;
  p = p * z - 0.041666666666666664LF;
  p = p * z + 0.5LF;
  return 1.0LF - z * p;
}

// x = k pi/2 + r, |r| <= pi/4, and k's quadrant in 0..3: Cody-Waite below
// 1e6 (the first two products are exact for |x| < 2^20 pi/2), Payne-Hanek
// beyond.
double reduce_pio2(double x, out int quadrant) {
  if (abs(x) >= 1.0e6LF) {  // Payne-Hanek (math.glsl)
    uvec2 words = unpackDouble2x32(abs(x));
    bool negative;
    uint64_t f_hi, f_lo;
    int e = int(words.y >> 20) - 1075;
    quadrant = reduce_pio2_bits((words.y & 0xFFFFFu) | 0x100000u, words.x, e, negative, f_hi, f_lo);
    int shift = normalize128(f_hi, f_lo);
    // The fraction as an exact 53-bit head and a rounded tail, times pi/2.
    uint64_t tail = ((f_hi & 0x7FFul) << 53) | (f_lo >> 11);
    double f = ldexp(double(f_hi >> 11), -53 - shift) + ldexp(double(tail), -117 - shift);
    double r = f * kPio2 + f * kPio2Lo;
    if (negative) r = -r;
    if (x < 0.0LF) {
      quadrant = (4 - quadrant) & 3;
      r = -r;
    }
    return r;
  }
  double k = roundEven(x * 0.6366197723675814LF);
  precise double r = ((x - k * kPio2_1) - k * kPio2_2) - k * kPio2_3;
  quadrant = int(k - 4.0LF * floor(0.25LF * k));
  return r;
}

double m_sin(double x) {
  if (isinf(x)) return double(kNaN);
  int q;
  double r = reduce_pio2(x, q);
  double v = (q & 1) == 0 ? sin_reduced(r) : cos_reduced(r);
  return q >= 2 ? -v : v;
}

double m_cos(double x) {
  if (isinf(x)) return double(kNaN);
  int q;
  double r = reduce_pio2(x, q);
  double v = (q & 1) == 0 ? cos_reduced(r) : sin_reduced(r);
  return (q == 1 || q == 2) ? -v : v;
}

double m_tan(double x) {
  if (isinf(x)) return double(kNaN);
  int q;
  double r = reduce_pio2(x, q);
  double s = sin_reduced(r), c = cos_reduced(r);
  return (q & 1) == 0 ? s / c : -c / s;
}

// atan: |x| > 1 through pi/2 - atan(1/|x|), then two half-angle steps
// t -> t / (1 + sqrt(1 + t^2)) bring |t| under tan(pi/16) for the odd series.
double m_atan(double x) {
  double a = abs(x);
  bool invert = a > 1.0LF;
  double t = invert ? 1.0LF / a : a;
  t = t / (1.0LF + sqrt(1.0LF + t * t));
  t = t / (1.0LF + sqrt(1.0LF + t * t));
  double z = t * t;
  double p = -1.0LF / 25.0LF;
  p = p * z + 1.0LF / 23.0LF;
  p = p * z - 1.0LF / 21.0LF;
  p = p * z + 1.0LF / 19.0LF;
  p = p * z - 1.0LF / 17.0LF;
  p = p * z + 1.0LF / 15.0LF;
  p = p * z - 1.0LF / 13.0LF;
  p = p * z + 1.0LF / 11.0LF;
  p = p * z - 1.0LF / 9.0LF;
  p = p * z + 1.0LF / 7.0LF;
  p = p * z - 1.0LF / 5.0LF;
  p = p * z + 1.0LF / 3.0LF;
  double r = 4.0LF * (t - t * z * p);
  if (invert) r = (kPio2 - r) + kPio2Lo;
  return m_signbit(x) ? -r : r;  // atan(-0) is -0
}

#define R double
#define R_DOUBLE 1
#define C(x) R(x)
#include "common/math_real.glsl"
#undef R
#undef R_DOUBLE
#undef C
