// Dropout. forward: keep ~ Bernoulli(1 - p) from element i's word (see
// philox.glsl), mask = keep, out = x * keep * scale; backward: out =
// grad * mask * scale. As on the CPU, a dropped NaN or infinity stays NaN.
// Operands: forward out, mask, x; backward out, grad (X), mask.
#include "common/strided.glsl"

// A dropped element: x * 0 * scale, a zero with x's sign, NaN where x is not
// finite, made from bits. Written as x * float(mask), NVIDIA's compiler
// turned the product into a select that lost the zero's sign (H200: the
// backward test's -0.0 came back +0.0; Vulkan preserves signed zeros only
// under SignedZeroInfNanPreserve).
float dropped(float x) {
  uint b = floatBitsToUint(x);
  return uintBitsToFloat((b & 0x7F800000u) == 0x7F800000u ? 0x7FC00000u : b & 0x80000000u);
}
#ifdef USES_F64
double dropped(double x) {
  uvec2 w = unpackDouble2x32(x);
  return packDouble2x32(uvec2(0u, (w.y & 0x7FF00000u) == 0x7FF00000u ? 0x7FF80000u : w.y & 0x80000000u));
}
#endif
X_T apply(X_T x, bool keep, X_T scale) { return keep ? x * scale : dropped(x); }

#ifdef OP_forward
#define LANES 4u
#include "random/philox.glsl"

// scalar[0]: ceil((1 - p) 2^32); scalar[1]: the scale.
void sample_into(uvec4 r, uint64_t i) {
  bool keep = below(r[uint(i % LANES)], args.scalar[0]);
  X_T x = X_load(operand_address(2, i));
  OUT_store(operand_address(0, i), apply(x, keep, X_SCALAR(1)));
  MASK_store(operand_address(1, i), keep);
}
#else
// scalar[0]: the scale.
void element(uint64_t i) {
  X_T g = X_load(operand_address(1, i));
  OUT_store(operand_address(0, i), apply(g, MASK_load(operand_address(2, i)), X_SCALAR(0)));
}

void elementv(uint64_t i) {
  X_T g[VEC];
  MASK_T m[VEC];
  X_loadv(operand_address(1, i), g);
  MASK_loadv(operand_address(2, i), m);
  for (int k = 0; k < VEC; ++k) g[k] = apply(g[k], m[k], X_SCALAR(0));
  OUT_storev(operand_address(0, i), g);
}
#endif

void main() { FOR_EACH_ELEMENT_VECTORIZED(element, elementv) }
