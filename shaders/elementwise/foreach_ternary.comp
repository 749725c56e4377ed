// out = op(a, b, c) over lists of tensors, with the ops of ternary.comp.
#include "elementwise/foreach.glsl"
#include "elementwise/ternary_ops.glsl"

void element(uint64_t i) { store(i, op(load(1, i), load(2, i), load(3, i))); }

void main() { FOR_EACH_CHUNK_ELEMENT(element) }
