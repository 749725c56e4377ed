// self[mask] = value: operand 0 is self (written where the bool mask, operand
// 1, is set), the value arrives converted to X as X_SCALAR(0).
#include "common/strided.glsl"

void element(uint64_t i) {
  if (RefU8(operand_address(1, i)).v != uint8_t(0)) X_store(operand_address(0, i), X_SCALAR(0));
}

void main() { FOR_EACH_ELEMENT(element) }
