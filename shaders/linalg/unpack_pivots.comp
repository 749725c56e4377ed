// lu_unpack's permutation, as ATen's unpack_pivots_stub: LAPACK's 1-based
// row swaps applied in order to the identity, one invocation per matrix.
// Operands: 0 the int64 permutation, 1 the int32 pivots, each the start of
// a contiguous row (the iterator squashes the last dimension); scalar[0] the
// swaps (min(m, n)), scalar[1] the rows m. A pivot outside [1, m] is
// reported (common/fault.glsl) and skipped.
#include "common/strided.glsl"
#include "common/fault.glsl"

void element(uint64_t i) {
  uint64_t perm = operand_address(0, i), pivots = operand_address(1, i);
  int64_t swaps = int64_t(args.scalar[0]), m = int64_t(args.scalar[1]);
  for (int64_t k = 0; k < swaps; ++k) {
    int64_t p = int64_t(RefI32(pivots + uint64_t(k) * 4).v) - 1;
    if (p < 0 || p >= m) {
      report_fault(FAULT_INDEX);
      continue;
    }
    RefI64 a = RefI64(perm + uint64_t(k) * 8), b = RefI64(perm + uint64_t(p) * 8);
    int64_t t = a.v;
    a.v = b.v;
    b.v = t;
  }
}

void main() { FOR_EACH_ELEMENT(element) }
