// out = op(x) with scalar parameters X_SCALAR(k); x and out share the dtype X.
#include "common/strided.glsl"
#include "elementwise/scalar_ops.glsl"

void element(uint64_t i) { X_store(operand_address(0, i), op(X_load(operand_address(1, i)))); }

void elementv(uint64_t i) {
  X_T v[VEC];
  X_loadv(operand_address(1, i), v);
  for (int k = 0; k < VEC; ++k) v[k] = op(v[k]);
  X_storev(operand_address(0, i), v);
}

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, elementv) }
