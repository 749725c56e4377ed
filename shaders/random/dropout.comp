// Dropout. forward: keep ~ Bernoulli(1 - p) from element i's word (see
// philox.glsl), mask = keep, out = x * keep * scale; backward: out =
// grad * mask * scale. As on the CPU, a dropped NaN or infinity stays NaN.
// Operands: forward out, mask, x; backward out, grad (X), mask.
#include "common/strided.glsl"

#ifdef OP_forward
#define LANES 4u
#include "random/philox.glsl"

// scalar[0]: ceil((1 - p) 2^32); scalar[1]: the scale.
void sample_into(uvec4 r, uint64_t i) {
  bool keep = below(r[uint(i % LANES)], args.scalar[0]);
  X_T x = X_load(operand_address(2, i));
  OUT_store(operand_address(0, i), x * X_CAST(keep) * X_SCALAR(1));
  MASK_store(operand_address(1, i), keep);
}
#else
// scalar[0]: the scale.
void element(uint64_t i) {
  X_T g = X_load(operand_address(1, i));
  OUT_store(operand_address(0, i), g * X_CAST(MASK_load(operand_address(2, i))) * X_SCALAR(0));
}

void elementv(uint64_t i) {
  X_T g[VEC];
  MASK_T m[VEC];
  X_loadv(operand_address(1, i), g);
  MASK_loadv(operand_address(2, i), m);
  for (int k = 0; k < VEC; ++k) g[k] *= X_CAST(m[k]) * X_SCALAR(0);
  OUT_storev(operand_address(0, i), g);
}
#endif

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, elementv) }
