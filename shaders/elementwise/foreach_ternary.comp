// out = op(a, b, c) over lists of tensors, with the ops of ternary.comp.
#include "elementwise/foreach.glsl"
#include "elementwise/ternary_ops.glsl"

void element(uint64_t i) { store(i, op(load(1, i), load(2, i), load(3, i))); }

void elementv(uint64_t i) {
  X_T v1[VEC], v2[VEC], v3[VEC];
  loadv(1, i, v1); loadv(2, i, v2); loadv(3, i, v3);
  for (int k = 0; k < VEC; ++k) v1[k] = op(v1[k], v2[k], v3[k]);
  storev(i, v1);
}

void main() { FOR_EACH_CHUNK_ELEMENT_VECTORIZED(element, elementv) }
