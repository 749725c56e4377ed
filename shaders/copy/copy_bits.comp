// out = in for tensors of one dtype: a bit copy by element width, any strides.
#include "common/strided.glsl"

void element(uint64_t i) {
  uint64_t dst = operand_address(0, i);
  uint64_t src = operand_address(1, i);
#if WIDTH == 1
  RefU8(dst).v = RefU8(src).v;
#elif WIDTH == 2
  RefU16(dst).v = RefU16(src).v;
#elif WIDTH == 4
  RefU32(dst).v = RefU32(src).v;
#else
  RefU64(dst).v = RefU64(src).v;
#endif
}

void main() { FOR_EACH_ELEMENT(element) }
