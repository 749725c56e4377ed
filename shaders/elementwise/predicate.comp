// out = op(x) as bool, elementwise (isnan, isinf, signbit, ...).
#include "common/strided.glsl"
#include "elementwise/predicate_ops.glsl"

void element(uint64_t i) { OUT_store(operand_address(0, i), op(X_load(operand_address(1, i)))); }

void element4(uint64_t i) {
  X_T v[4];
  bool r[4];
  X_load4(operand_address(1, i), v);
  for (int k = 0; k < 4; ++k) r[k] = op(v[k]);
  OUT_store4(operand_address(0, i), r);
}

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, element4) }
