// out = op(x) as bool, elementwise (isnan, isinf, signbit, ...).
#include "common/strided.glsl"
#include "elementwise/predicate_ops.glsl"

void element(uint64_t i) { OUT_store(operand_address(0, i), op(X_load(operand_address(1, i)))); }

void main() { FOR_EACH_ELEMENT(element) }
