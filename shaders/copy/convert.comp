// out = DST(in) for any two distinct dtypes, any strides.
#include "common/strided.glsl"

void element(uint64_t i) {
  DST_store(operand_address(0, i), DST_CAST(SRC_load(operand_address(1, i))));
}

void main() { FOR_EACH_ELEMENT(element) }
