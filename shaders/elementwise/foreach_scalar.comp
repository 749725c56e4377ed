// out = op(x; scalars) over lists of tensors, with the ops of scalar.comp.
#include "elementwise/foreach.glsl"
#include "elementwise/scalar_ops.glsl"

void element(uint64_t i) { store(i, op(load(1, i))); }

void main() { FOR_EACH_CHUNK_ELEMENT(element) }
