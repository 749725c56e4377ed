// out = op(a, b) as bool; a and b share the dtype X.
#include "common/strided.glsl"
#include "elementwise/compare_ops.glsl"

void element(uint64_t i) {
  OUT_store(operand_address(0, i), op(X_load(operand_address(1, i)), X_load(operand_address(2, i))));
}

void main() { FOR_EACH_ELEMENT(element) }
