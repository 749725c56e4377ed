// Operand access for the foreach kernels (multi-tensor forms of the
// elementwise kernels, reusing their ops): operand 0 is written; an input is
// a tensor, the element 0 of a tensor, or the value of scalar slot 3.
#include "common/multi_tensor.glsl"

X_T load(int op, uint64_t i) { return mt_is_scalar(op) ? X_SCALAR(3) : X_load(mt_address(op, i, X_BYTES)); }
void store(uint64_t i, X_T v) { X_store(mt_address(0, i, X_BYTES), v); }

// VEC elements from i on; a value or element-0 operand is repeated.
void loadv(int op, uint64_t i, out X_T v[VEC]) {
  if (mt_is_scalar(op) || ((args.flags >> op) & 1u) != 0u) {
    X_T x = load(op, i);
    for (int k = 0; k < VEC; ++k) v[k] = x;
  } else {
    X_loadv(mt_address(op, i, X_BYTES), v);
  }
}
void storev(uint64_t i, X_T v[VEC]) { X_storev(mt_address(0, i, X_BYTES), v); }
