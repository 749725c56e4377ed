// out = op(a, b) as bool; a and b share the dtype X.
#include "common/strided.glsl"
#include "elementwise/compare_ops.glsl"

void element(uint64_t i) {
  OUT_store(operand_address(0, i), op(X_load(operand_address(1, i)), X_load(operand_address(2, i))));
}

void elementv(uint64_t i) {
  X_T a[VEC], b[VEC];
  bool r[VEC];
  X_loadv(operand_address(1, i), a);
  X_loadv(operand_address(2, i), b);
  for (int k = 0; k < VEC; ++k) r[k] = op(a[k], b[k]);
  OUT_storev(operand_address(0, i), r);
}

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, elementv) }
