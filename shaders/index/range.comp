// Range factories over a contiguous output, computed as the CPU does:
//   arange:   out[i] = start + step * i
//   linspace: out[i] = start + step * i in the first half, end - step * (n - 1 - i) in the second
//   logspace: out[i] = base ^ (start + step * i), or base ^ (end - step * (n - 1 - i)) in the second half
// scalar[0..3]: start, step, end, base as raw bits of OUT_T.
#include "common/strided.glsl"
#ifdef USES_F64
#include "common/math.glsl"
#endif

// linspace in a 16-bit float type rounds every intermediate to it, as the
// CPU's c10::Half / c10::BFloat16 arithmetic does.
#if defined(OUT_DT_F16)
#define R(v) unpackHalf2x16(f32_to_f16_bits(v)).x
#elif defined(OUT_DT_BF16)
#define R(v) uintBitsToFloat(f32_to_bf16_bits(v) << 16)
#else
#define R(v) (v)
#endif

#ifdef OUT_DT_F64
// GLSL has no double pow. Integral exponents multiply out, so exact powers
// stay exact as in the CPU's std::pow (integer logspace truncates them).
double power(double base, double e) {
  if (e == floor(e) && abs(e) < 64.0LF) {
    double r = 1.0LF, b = base;
    for (int k = int(abs(e)); k > 0; k >>= 1) {
      if ((k & 1) != 0) r *= b;
      b *= b;
    }
    return e < 0.0LF ? 1.0LF / r : r;
  }
  return m_exp(e * m_log(base));
}
#else
float power(float base, float e) { return pow(base, e); }
#endif

void element(uint64_t i) {
  OUT_T start = OUT_SCALAR(0), step = OUT_SCALAR(1);
#ifdef OP_arange
  OUT_T v = start + step * OUT_T(i);
#elif defined(OP_linspace)
  int64_t n = int64_t(args.numel);
  OUT_T v = int64_t(i) < n / 2 ? R(start + R(step * R(OUT_T(i))))
                               : R(OUT_SCALAR(2) - R(step * R(OUT_T(n - 1 - int64_t(i)))));
#else
  // The CPU computes exponents in double, not in a 16-bit type.
  int64_t n = int64_t(args.numel);
  OUT_T e = int64_t(i) < n / 2 ? start + step * OUT_T(i) : OUT_SCALAR(2) - step * OUT_T(n - 1 - int64_t(i));
  OUT_T v = power(OUT_SCALAR(3), e);
#endif
  OUT_store(operand_address(0, i), v);
}

void main() { FOR_EACH_ELEMENT(element) }
