// out = cond ? a : b; cond is bool, a, b and out share the dtype X.
#include "common/strided.glsl"

void element(uint64_t i) {
  bool take_a = RefU8(operand_address(1, i)).v != uint8_t(0);
  X_store(operand_address(0, i), X_load(operand_address(take_a ? 2 : 3, i)));
}

void main() { FOR_EACH_ELEMENT(element) }
