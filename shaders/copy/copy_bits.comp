// out = in for tensors of one dtype: a bit copy by element width, any strides.
#include "common/bits.glsl"
#include "common/strided.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) buffer RefU4 { uvec4 v; };

void element(uint64_t i) { copy_element(operand_address(0, i), operand_address(1, i)); }

// VEC elements: one 16-byte copy, two for 8-byte elements.
void elementv(uint64_t i) {
  uint64_t dst = operand_address(0, i);
  uint64_t src = operand_address(1, i);
  for (int k = 0; k < VEC * WIDTH / 16; ++k) RefU4(dst + 16 * k).v = RefU4(src + 16 * k).v;
}

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, elementv) }
