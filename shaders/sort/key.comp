// Sort keys: out[i] = an unsigned integer (32-bit, or 64-bit for 8-byte
// dtypes) whose unsigned order is the CPU's sort order of x[i]: NaNs all
// equal and above +inf, -0 equal to +0. scalar[0] != 0 inverts the order
// (descending). Ties are then broken by position, which makes the sort stable.
#include "common/strided.glsl"

#if X_BYTES == 8
#define KEY uint64_t
#else
#define KEY uint
#endif

KEY key_of(X_T x) {
#if defined(X_DT_F64)
  uint64_t u = doubleBitsToUint64(x);
  uint64_t magnitude = u & 0x7FFFFFFFFFFFFFFFul;
  if (magnitude > 0x7FF0000000000000ul) return ~0ul;
  if (magnitude == 0ul) u = 0ul;
  return (u >> 63) != 0ul ? ~u : u | 0x8000000000000000ul;
#elif defined(X_DT_F32) || defined(X_DT_F16) || defined(X_DT_BF16)
  uint u = floatBitsToUint(x);  // 16-bit floats widen exactly
  uint magnitude = u & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) return ~0u;
  if (magnitude == 0u) u = 0u;
  return (u >> 31) != 0u ? ~u : u | 0x80000000u;
#elif defined(X_DT_B8)
  return x ? 1u : 0u;
#elif defined(X_DT_U8)
  return uint(x);
#elif defined(X_DT_I64)
  return uint64_t(x) ^ 0x8000000000000000ul;
#else
  return uint(x) ^ 0x80000000u;
#endif
}

void element(uint64_t i) {
  KEY key = key_of(X_load(operand_address(1, i)));
  if (args.scalar[0] != 0ul) key = ~key;
#if X_BYTES == 8
  RefU64(operand_address(0, i)).v = key;
#else
  RefU32(operand_address(0, i)).v = key;
#endif
}

void main() { FOR_EACH_ELEMENT(element) }
