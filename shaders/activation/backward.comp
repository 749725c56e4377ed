// out = op(a, b), elementwise: activation backward ops and threshold; all
// operands share the dtype X.
#include "common/strided.glsl"
#include "common/math.glsl"
#include "activation/activation_math.glsl"
#include "activation/backward_ops.glsl"

void element(uint64_t i) {
  X_store(operand_address(0, i), op(X_load(operand_address(1, i)), X_load(operand_address(2, i))));
}

void elementv(uint64_t i) {
  X_T a[VEC], b[VEC];
  X_loadv(operand_address(1, i), a);
  X_loadv(operand_address(2, i), b);
  for (int k = 0; k < VEC; ++k) a[k] = op(a[k], b[k]);
  X_storev(operand_address(0, i), a);
}

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, elementv) }
