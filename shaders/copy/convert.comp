// out = DST(in) for any two distinct dtypes, any strides.
#include "common/strided.glsl"

void element(uint64_t i) {
  DST_store(operand_address(0, i), DST_CAST(SRC_load(operand_address(1, i))));
}

void elementv(uint64_t i) {
  SRC_T x[VEC];
  DST_T y[VEC];
  SRC_loadv(operand_address(1, i), x);
  for (int k = 0; k < VEC; ++k) y[k] = DST_CAST(x[k]);
  DST_storev(operand_address(0, i), y);
}

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, elementv) }
