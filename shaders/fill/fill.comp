// out = value, any strides. The host passes the value in the output dtype's
// compute type, as raw bits in scalar[0].
#include "common/strided.glsl"

void element(uint64_t i) { OUT_store(operand_address(0, i), OUT_SCALAR(0)); }

void elementv(uint64_t i) {
  OUT_T v[VEC];
  for (int k = 0; k < VEC; ++k) v[k] = OUT_SCALAR(0);
  OUT_storev(operand_address(0, i), v);
}

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, elementv) }
