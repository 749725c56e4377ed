// dst[index] = combine(dst[index], src), atomically (see common/atomic.glsl):
// operand 0 dst (restrided so that the indexed dimension has stride 0), 1 src,
// 2 the int64 index. scalar[0]: the indexed dimension's stride in bytes;
// scalar[1]: its size (0: indices are offsets in units of scalar[0]);
// scalar[2]: flags (index/bits.glsl's index_in), bit 0 skips updates whose
// index equals scalar[3] (embedding's padding_idx). Indices out of range
// update nothing and are reported (common/fault.glsl).
#include "common/strided.glsl"
#include "index/bits.glsl"

// NaN propagates through amax and amin, as on the CPU.
#if defined(X_DT_F16) || defined(X_DT_BF16) || defined(X_DT_F32) || defined(X_DT_F64)
bool is_nan(X_T v) { return isnan(v); }
#else
bool is_nan(X_T v) { return false; }
#endif

X_T combine(X_T a, X_T b) {
#if defined(X_DT_B8) && (defined(OP_sum) || defined(OP_amax))
  return a || b;
#elif defined(X_DT_B8)
  return a && b;
#elif defined(OP_sum)
  return a + b;
#elif defined(OP_prod)
  return a * b;
#elif defined(OP_amax)
  return is_nan(b) || b > a ? b : a;
#else
  return is_nan(b) || b < a ? b : a;
#endif
}

#include "common/atomic.glsl"

void element(uint64_t i) {
  int64_t raw = RefI64(operand_address(2, i)).v;
  if ((args.scalar[2] & 1ul) != 0ul && raw == int64_t(args.scalar[3])) return;
  int64_t index = index_in(raw, int64_t(args.scalar[1]), args.scalar[2]);
  if (index < 0) return;
  X_T value = X_load(operand_address(1, i));
  atomic_combine(operand_address(0, i) + uint64_t(index * int64_t(args.scalar[0])), value);
}

void main() { FOR_EACH_ELEMENT(element) }
