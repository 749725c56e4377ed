// Random sampling into operand 0 (any strides): out[i] = a draw of the op's
// distribution from element i's words (see philox.glsl). Parameters arrive in
// scalar[0..1], as the compute type R of the sample (double for float64
// outputs, float otherwise) unless the op says otherwise.
#include "common/strided.glsl"
#include "common/math.glsl"

// Elements per Philox block: four of one word (Bernoulli draws, 32-bit
// integers, samples from 24-bit uniforms), two of two words (64-bit integers,
// float64 samples from 53-bit uniforms).
#if defined(OP_bernoulli_scalar) || defined(OP_bernoulli_tensor) || defined(OP_random32)
#define LANES 4u
#elif defined(OP_random64) || defined(OUT_DT_F64)
#define LANES 2u
#else
#define LANES 4u
#endif
#include "random/philox.glsl"

#ifdef OUT_DT_F64
#define R double
R param(int k) { return scalar_double(k); }
// Uniform in [0, 1) from the element's two words.
R unit_uniform(uvec4 r, uint lane) { return uniform53(r[2 * lane], r[2 * lane + 1]); }
R uniform_digits(uvec4 r, uint lane) { return unit_uniform(r, lane); }
const R kTwoPi = 6.283185307179586476925LF;
const R kPi = 3.141592653589793238463LF;
const R kTiny = 2.2250738585072014e-308LF;  // smallest normal double
#else
#define R float
R param(int k) { return scalar_float(k); }
R unit_uniform(uvec4 r, uint lane) { return uniform24(r[lane]); }
// Uniform in [0, 1) on the grid of the output dtype's significand (2^-11 for
// float16, 2^-8 for bfloat16), as the CPU draws it: a sample never rounds up
// to 1 in the output dtype.
#if defined(OUT_DT_F16)
const int kDigits = 11;
#elif defined(OUT_DT_BF16)
const int kDigits = 8;
#else
const int kDigits = 24;
#endif
R uniform_digits(uvec4 r, uint lane) { return float(r[lane] >> (32 - kDigits)) * exp2(float(-kDigits)); }
const R kTwoPi = 6.2831853071795865;
const R kPi = 3.1415926535897932;
#ifdef OUT_DT_F16
const R kTiny = 5.9604644775390625e-8;  // smallest positive float16
#else
const R kTiny = 1.1754943508222875e-38;  // smallest normal float (and bfloat16)
#endif
#endif

// Standard normal by Box-Muller: lanes 2j and 2j+1 share the uniforms of both
// and take the cosine and the sine of one angle. 1 - u1 lies in (0, 1], so
// the log is finite; log1p keeps it accurate near u1 = 0.
R standard_normal(uvec4 r, uint lane) {
  R radius = sqrt(R(-2) * m_log1p(-unit_uniform(r, lane & ~1u)));
  R angle = kTwoPi * unit_uniform(r, lane | 1u);
  return radius * ((lane & 1u) == 0u ? m_cos(angle) : m_sin(angle));
}

OUT_T draw(uvec4 r, uint lane, uint64_t i) {
#if defined(OP_uniform)  // from, to
  return OUT_CAST(uniform_digits(r, lane) * (param(1) - param(0)) + param(0));
#elif defined(OP_normal)  // mean, std
  return OUT_CAST(param(0) + param(1) * standard_normal(r, lane));
#elif defined(OP_log_normal)  // mean, std
  return OUT_CAST(m_exp(param(0) + param(1) * standard_normal(r, lane)));
#elif defined(OP_exponential)  // lambda; never 0, as on CUDA
  return OUT_CAST(max(-m_log1p(-unit_uniform(r, lane)) / param(0), kTiny));
#elif defined(OP_cauchy)  // median, sigma
  return OUT_CAST(param(0) + param(1) * m_tan(kPi * (unit_uniform(r, lane) - R(0.5))));
#elif defined(OP_geometric)  // log1p(-p): trials up to the first success, at least 1
  return OUT_CAST(max(ceil(m_log1p(-unit_uniform(r, lane)) / param(0)), R(1)));
#elif defined(OP_bernoulli_scalar)  // ceil(p 2^32) as an integer
  return OUT_CAST(below(r[lane], args.scalar[0]));
#elif defined(OP_bernoulli_tensor)  // p per element, operand 1 (float)
  return OUT_CAST(below(r[lane], uint64_t(ceil(P_load(operand_address(1, i)) * 4294967296.0))));
#elif defined(OP_random32)  // range < 2^32, base: base + w mod range
  return OUT_CAST(int64_t(args.scalar[1]) + int64_t(r[lane] % uint(args.scalar[0])));
#elif defined(OP_random64)  // range (0 for 2^64), base
  uint64_t w = (uint64_t(r[2 * lane + 1]) << 32) | uint64_t(r[2 * lane]);
  uint64_t range = args.scalar[0];
  return OUT_CAST(int64_t(args.scalar[1] + (range == 0 ? w : w % range)));
#endif
}

void sample_into(uvec4 r, uint64_t i) { OUT_store(operand_address(0, i), draw(r, uint(i % LANES), i)); }

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, elementv) }
