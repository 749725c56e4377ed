// out = op(x) over lists of tensors, with the ops of unary.comp.
#include "elementwise/foreach.glsl"
#include "common/math.glsl"
#include "elementwise/unary_ops.glsl"

void element(uint64_t i) { store(i, op(load(1, i))); }

void main() { FOR_EACH_CHUNK_ELEMENT(element) }
