// out = op(x) with scalar parameters X_SCALAR(k); x and out share the dtype X.
#include "common/strided.glsl"
#include "elementwise/scalar_ops.glsl"

void element(uint64_t i) { X_store(operand_address(0, i), op(X_load(operand_address(1, i)))); }

void main() { FOR_EACH_ELEMENT(element) }
