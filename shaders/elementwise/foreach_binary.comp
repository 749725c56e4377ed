// out = op(a, b) over lists of tensors, with the ops of binary.comp.
#include "elementwise/foreach.glsl"
#include "elementwise/binary_ops.glsl"

void element(uint64_t i) { store(i, op(load(1, i), load(2, i))); }

void main() { FOR_EACH_CHUNK_ELEMENT(element) }
