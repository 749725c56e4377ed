// out = !x as bool, for x of any dtype X.
#include "common/strided.glsl"

void element(uint64_t i) { OUT_store(operand_address(0, i), !to_bool(X_load(operand_address(1, i)))); }

void element4(uint64_t i) {
  X_T v[4];
  bool r[4];
  X_load4(operand_address(1, i), v);
  for (int k = 0; k < 4; ++k) r[k] = !to_bool(v[k]);
  OUT_store4(operand_address(0, i), r);
}

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, element4) }
