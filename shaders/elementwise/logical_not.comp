// out = !x as bool, for x of any dtype X.
#include "common/strided.glsl"

void element(uint64_t i) { OUT_store(operand_address(0, i), !to_bool(X_load(operand_address(1, i)))); }

void main() { FOR_EACH_ELEMENT(element) }
