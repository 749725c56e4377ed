// Elementwise loss terms and their gradients, out = op(inputs), over an
// at::TensorIterator; every operand has the dtype X, math in X's compute type
// (float for 16-bit floats). loss/pointwise_ops.glsl defines op and its
// number of inputs (INPUTS, 2 or 3).
#include "common/strided.glsl"
#include "common/math.glsl"
#include "loss/pointwise_ops.glsl"

X_T apply(X_T v[3]) {
#if INPUTS == 2
  return op(v[0], v[1]);
#else
  return op(v[0], v[1], v[2]);
#endif
}

void element(uint64_t i) {
  X_T v[3];
  for (int k = 0; k < INPUTS; ++k) v[k] = X_load(operand_address(1 + k, i));
  X_store(operand_address(0, i), apply(v));
}

void elementv(uint64_t i) {
  X_T a[3][VEC], r[VEC];
  for (int k = 0; k < INPUTS; ++k) X_loadv(operand_address(1 + k, i), a[k]);
  for (int e = 0; e < VEC; ++e) r[e] = apply(X_T[3](a[0][e], a[1][e], a[2][e]));
  X_storev(operand_address(0, i), r);
}

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, elementv) }
