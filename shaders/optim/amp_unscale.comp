// _amp_foreach_non_finite_check_and_unscale_ over lists of gradients, as
// torch.amp.GradScaler calls it: each gradient is multiplied by inv_scale in
// X's compute type (left as it is when inv_scale is 1), and found_inf is set
// to 1 where an input element is infinite or NaN (never cleared: the caller
// zeroes it). Operands: 0 the gradients, 1 found_inf, 2 inv_scale (float32
// tensors of one element).
#include "common/multi_tensor.glsl"

X_T inv_scale;

X_T unscale(X_T v) {
  if (isnan(v) || isinf(v)) RefF32(mt_ptr(1)).v = 1.0;  // every writer writes the same value
  return inv_scale == X_T(1) ? v : v * inv_scale;
}

void element(uint64_t i) {
  uint64_t at = mt_address(0, i, X_BYTES);
  X_store(at, unscale(X_load(at)));
}

void elementv(uint64_t i) {
  X_T v[VEC];
  uint64_t at = mt_address(0, i, X_BYTES);
  X_loadv(at, v);
  for (int k = 0; k < VEC; ++k) v[k] = unscale(v[k]);
  X_storev(at, v);
}

void main() {
  if (!mt_locate()) return;
  inv_scale = X_T(RefF32(mt_ptr(2)).v);
  FOR_EACH_CHUNK_ELEMENT_VECTORIZED(element, elementv)
}
