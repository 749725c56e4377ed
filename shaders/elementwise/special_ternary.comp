// out = op(a, b, c), elementwise, for the special functions of three
// arguments; a, b, c and out share the dtype X.
#include "common/strided.glsl"
#include "elementwise/special_ops.glsl"

void element(uint64_t i) {
  X_store(operand_address(0, i), op(X_load(operand_address(1, i)), X_load(operand_address(2, i)),
                                    X_load(operand_address(3, i))));
}

void main() { FOR_EACH_ELEMENT(element) }
