// out = in for tensors of one dtype: a bit copy by element width, any strides.
#include "common/strided.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) buffer RefU4 { uvec4 v; };

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

// VEC elements: one 16-byte copy, two for 8-byte elements.
void elementv(uint64_t i) {
  uint64_t dst = operand_address(0, i);
  uint64_t src = operand_address(1, i);
  for (int k = 0; k < VEC * WIDTH / 16; ++k) RefU4(dst + 16 * k).v = RefU4(src + 16 * k).v;
}

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, elementv) }
