// out = op(x) over lists of tensors, with the ops of unary.comp.
#include "elementwise/foreach.glsl"
#include "common/math.glsl"
#include "elementwise/unary_ops.glsl"

void element(uint64_t i) { store(i, op(load(1, i))); }

void elementv(uint64_t i) {
  X_T v1[VEC];
  loadv(1, i, v1);
  for (int k = 0; k < VEC; ++k) v1[k] = op(v1[k]);
  storev(i, v1);
}

void main() { FOR_EACH_CHUNK_ELEMENT_VECTORIZED(element, elementv) }
