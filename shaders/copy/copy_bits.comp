// out = in for tensors of one dtype: a bit copy by element width, any strides.
#include "common/strided.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) buffer RefU4 { uvec4 v; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer RefU2 { uvec2 v; };

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

// Four elements: 4, 8, 16 or 2 x 16 bytes.
void element4(uint64_t i) {
  uint64_t dst = operand_address(0, i);
  uint64_t src = operand_address(1, i);
#if WIDTH == 1
  RefU32(dst).v = RefU32(src).v;
#elif WIDTH == 2
  RefU2(dst).v = RefU2(src).v;
#elif WIDTH == 4
  RefU4(dst).v = RefU4(src).v;
#else
  RefU4(dst).v = RefU4(src).v;
  RefU4(dst + 16).v = RefU4(src + 16).v;
#endif
}

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, element4) }
