// out = op(x) as bool, elementwise (isnan, isinf, signbit, ...).
#include "common/strided.glsl"
#include "elementwise/predicate_ops.glsl"

void element(uint64_t i) { OUT_store(operand_address(0, i), op(X_load(operand_address(1, i)))); }

void elementv(uint64_t i) {
  X_T v[VEC];
  bool r[VEC];
  X_loadv(operand_address(1, i), v);
  for (int k = 0; k < VEC; ++k) r[k] = op(v[k]);
  OUT_storev(operand_address(0, i), r);
}

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, elementv) }
