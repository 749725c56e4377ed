// Range factories over a contiguous output, computed as the CPU does:
//   arange:   out[i] = start + step * i
//   linspace: out[i] = start + step * i in the first half, end - step * (n - 1 - i) in the second
//   logspace: out[i] = base ^ linspace[i]
// scalar[0..3]: start, step, end, base as raw bits of OUT_T.
#include "common/strided.glsl"

// linspace in a 16-bit float type rounds every intermediate to it, as the
// CPU's c10::Half / c10::BFloat16 arithmetic does.
#if defined(OUT_DT_F16)
#define R(v) unpackHalf2x16(f32_to_f16_bits(v)).x
#elif defined(OUT_DT_BF16)
#define R(v) uintBitsToFloat(f32_to_bf16_bits(v) << 16)
#else
#define R(v) (v)
#endif

void element(uint64_t i) {
  OUT_T start = OUT_SCALAR(0), step = OUT_SCALAR(1);
#ifdef OP_arange
  OUT_T v = start + step * OUT_T(i);
#else
  int64_t n = int64_t(args.numel);
  OUT_T v = int64_t(i) < n / 2 ? R(start + R(step * R(OUT_T(i))))
                               : R(OUT_SCALAR(2) - R(step * R(OUT_T(n - 1 - int64_t(i)))));
#endif
#ifdef OP_logspace
  v = pow(OUT_SCALAR(3), v);
#endif
  OUT_store(operand_address(0, i), v);
}

void main() { FOR_EACH_ELEMENT(element) }
