// out = op(a, b, c), elementwise; all share the dtype X.
#include "common/strided.glsl"
#include "elementwise/ternary_ops.glsl"

void element(uint64_t i) {
  X_T a = X_load(operand_address(1, i));
  X_store(operand_address(0, i), op(a, X_load(operand_address(2, i)), X_load(operand_address(3, i))));
}

void main() { FOR_EACH_ELEMENT(element) }
