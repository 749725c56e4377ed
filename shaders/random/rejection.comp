// Samplers whose draws take a data-dependent number of random words, one
// element per invocation, out[i] from the parameters at operand 1 (and 2):
//   gamma:    Gamma(alpha, 1) by Marsaglia and Tsang's squeeze and rejection
//             ("A simple method for generating gamma variables", 2000),
//             alpha < 1 boosted to alpha + 1 and scaled by u^(1/alpha); at
//             least the smallest normal float, as on the CPU (also for alpha
//             <= 0 or NaN)
//   poisson:  Poisson(rate): Knuth's product of uniforms below rate 10,
//             Hoermann's transformed rejection with squeeze (PTRS, "The
//             transformed rejection method for generating Poisson random
//             variables", 1993) from 10; a rate below 0 or NaN writes NaN
//             and is reported (common/fault.glsl), as the CPU raises
//   binomial: Binomial(count, prob): inversion by geometric waiting times
//             below count * min(prob, 1 - prob) = 10, Hoermann's BTRS
//             ("The generation of binomial random variates", 1993) from
//             10; 0 for count <= 0 or prob <= 0, count for prob >= 1, NaN
//             for a NaN parameter, as the CPU (which hangs on a NaN count)
// The acceptance tests compare log densities through Stirling's series
// tail, not lgamma's large values, so float32 keeps their differences.
//
// Element i reads the words of its Philox blocks k = 0, 1, ...: block k is
// counter (i + k 2^56, offset) (philox.glsl; block 0 is what LANES = 1 gives
// it), so every draw is fixed by (seed, offset, i). After 256 blocks (1024
// words; a rejection loop accepts with probability near 0.9 per try) an
// element keeps its last candidate.
#include "common/strided.glsl"
#include "common/math.glsl"
#define LANES 1u
#include "random/philox.glsl"
#include "common/fault.glsl"

#ifdef OUT_DT_F64
#define R double
const R kTiny = 2.2250738585072014e-308LF;  // smallest normal double
const R kLogSqrtTwoPi = 0.91893853320467274178LF;
#else
#define R float
#ifdef OUT_DT_F16
const R kTiny = 6.103515625e-5;  // smallest normal float16
#else
const R kTiny = 1.1754943508222875e-38;  // smallest normal float (and bfloat16)
#endif
const R kLogSqrtTwoPi = 0.91893853320467274178;
#endif
const uint kBlocks = 256u;

// The element's stream of words.
uint64_t g_element;
uint g_block, g_lane;
uvec4 g_words;
bool g_exhausted = false;

uint next_word() {
  if (g_lane == 4u) {
    if (g_block + 1u == kBlocks) g_exhausted = true;
    g_block = min(g_block + 1u, kBlocks - 1u);
    uint64_t c = g_element + (uint64_t(g_block) << 56);
    uint64_t offset = args.scalar[3], seed = args.scalar[2];
    g_words = philox4x32_10(uvec4(uint(c), uint(c >> 32), uint(offset), uint(offset >> 32)),
                            uvec2(uint(seed), uint(seed >> 32)));
    g_lane = 0u;
  }
  return g_words[g_lane++];
}

// Uniform in [0, 1).
R unit() {
#ifdef OUT_DT_F64
  uint lo = next_word();
  return uniform53(lo, next_word());
#else
  return uniform24(next_word());
#endif
}

// Standard normal by Box-Muller (one of the pair); 1 - u lies in (0, 1].
R normal() {
  R radius = sqrt(R(-2) * m_log1p(-unit()));
  return radius * m_cos(R(6.283185307179586476925LF) * unit());
}

// log(k!) less Stirling's (k + 1/2) log(k + 1) - (k + 1) + log(sqrt(2 pi)):
// the exact values below 10, the series' first terms above.
R stirling_tail(R k) {
  const R table[10] = R[10](R(0.08106146679532726LF), R(0.04134069595540929LF), R(0.02767792568499834LF),
                            R(0.02079067210376509LF), R(0.01664469118982119LF), R(0.01387612882307075LF),
                            R(0.01189670994589177LF), R(0.01041126526197209LF), R(0.009255462182712733LF),
                            R(0.008330563433362871LF));
  if (k <= R(9)) return table[int(k)];
  R n = k + R(1), n2 = n * n;
  return (R(1) / R(12) - (R(1) / R(360) - R(1) / R(1260) / n2) / n2) / n;
}

// log(lambda^k e^-lambda / k!) through the tail: no cancellation of large terms.
R log_poisson(R k, R lambda) {
  return (k + R(1) - lambda) + k * m_log(lambda / (k + R(1))) - R(0.5) * m_log(k + R(1)) - kLogSqrtTwoPi -
         stirling_tail(k);
}

#ifdef OP_gamma
R draw_sample(uint64_t i) {
  R alpha = R(OUT_load(operand_address(1, i)));
  if (!(alpha > R(0))) return kTiny;
  if (isinf(alpha)) return alpha;
  R scale = R(1);
  if (alpha < R(1)) {
    scale = m_exp(m_log1p(-unit()) / alpha);
    alpha += R(1);
  }
  R d = alpha - R(1) / R(3), c = R(1) / sqrt(R(9) * d), v = d;
  while (!g_exhausted) {
    R x = normal(), y = R(1) + c * x;
    if (y <= R(0)) continue;
    v = y * y * y;
    R u = R(1) - unit(), xx = x * x;
    if (u < R(1) - R(0.0331) * xx * xx) break;
    if (m_log(u) < R(0.5) * xx + d * (R(1) - v + m_log(v))) break;
  }
  return max(scale * d * v, kTiny);
}
#endif

#ifdef OP_poisson
R draw_sample(uint64_t i) {
  R lambda = R(OUT_load(operand_address(1, i)));
  if (!(lambda >= R(0))) {
    report_fault(FAULT_VALUE);
    return R(0) / R(0);
  }
  if (lambda == R(0) || isinf(lambda)) return lambda;
  if (lambda < R(10)) {
    R limit = m_exp(-lambda), product = R(1), k = R(0);
    while (!g_exhausted) {
      product *= unit();
      if (product <= limit) break;
      k += R(1);
    }
    return k;
  }
  R slam = sqrt(lambda), b = R(0.931) + R(2.53) * slam, a = R(-0.059) + R(0.02483) * b;
  R inv_alpha = R(1.1239) + R(1.1328) / (b - R(3.4)), v_r = R(0.9277) - R(3.6224) / (b - R(2));
  R k = floor(lambda);
  while (!g_exhausted) {
    R u = unit() - R(0.5), v = unit(), us = R(0.5) - abs(u);
    k = floor((R(2) * a / us + b) * u + lambda + R(0.43));
    if (us >= R(0.07) && v <= v_r) break;
    if (k < R(0) || (us < R(0.013) && v > us)) continue;
    if (m_log(v * inv_alpha / (a / (us * us) + b)) <= log_poisson(k, lambda)) break;
  }
  return max(k, R(0));
}
#endif

#ifdef OP_binomial
// Inversion: the number of geometric waiting times (failures before each
// success, plus it) that fit in count trials.
R binomial_inversion(R count, R prob) {
  R log_q = m_log1p(-prob), successes = R(0), trials = R(0);
  while (!g_exhausted) {
    trials += ceil(m_log(R(1) - unit()) / log_q);
    if (trials > count) break;
    successes += R(1);
  }
  return successes;
}

R binomial_btrs(R count, R prob) {
  R spq = sqrt(count * prob * (R(1) - prob));
  R b = R(1.15) + R(2.53) * spq, a = R(-0.0873) + R(0.0248) * b + R(0.01) * prob;
  R c = count * prob + R(0.5), v_r = R(0.92) - R(4.2) / b, r = prob / (R(1) - prob);
  R alpha = (R(2.83) + R(5.1) / b) * spq, m = floor((count + R(1)) * prob);
  R k = m;
  while (!g_exhausted) {
    R u = unit() - R(0.5), v = unit(), us = R(0.5) - abs(u);
    R candidate = floor((R(2) * a / us + b) * u + c);
    if (candidate < R(0) || candidate > count) continue;
    k = candidate;
    if (us >= R(0.07) && v <= v_r) break;
    R log_v = m_log(v * alpha / (a / (us * us) + b));
    R bound = (m + R(0.5)) * m_log((m + R(1)) / (r * (count - m + R(1)))) +
              (count + R(1)) * m_log((count - m + R(1)) / (count - k + R(1))) +
              (k + R(0.5)) * m_log(r * (count - k + R(1)) / (k + R(1))) + stirling_tail(m) +
              stirling_tail(count - m) - stirling_tail(k) - stirling_tail(count - k);
    if (log_v <= bound) break;
  }
  return k;
}

R draw_sample(uint64_t i) {
  R count = R(OUT_load(operand_address(1, i))), prob = R(OUT_load(operand_address(2, i)));
  if (isnan(count) || isnan(prob) || isinf(count)) return R(0) / R(0);
  if (count <= R(0) || prob <= R(0)) return R(0);
  if (prob >= R(1)) return count;
  bool flip = prob > R(0.5);
  R p = flip ? R(1) - prob : prob;
  R k = count * p >= R(10) ? binomial_btrs(count, p) : binomial_inversion(count, p);
  return flip ? count - k : k;
}
#endif

void sample_into(uvec4 r, uint64_t i) {
  g_element = i;
  g_block = 0u;
  g_lane = 0u;
  g_words = r;
  g_exhausted = false;
  OUT_store(operand_address(0, i), OUT_CAST(draw_sample(i)));
}

void main() { FOR_EACH_ELEMENT(element) }
