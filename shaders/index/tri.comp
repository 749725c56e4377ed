// tril / triu: out = keep ? self : 0 with keep = col - row <= k (tril) or
// >= k (triu). Operands: 0 out, 1 self, 2 row and 3 col, int64 coordinate
// tensors broadcast over the matrix dims; scalar[0] = k.
#include "common/strided.glsl"

void element(uint64_t i) {
  int64_t offset = RefI64(operand_address(3, i)).v - RefI64(operand_address(2, i)).v;
#ifdef OP_tril
  bool keep = offset <= int64_t(args.scalar[0]);
#else
  bool keep = offset >= int64_t(args.scalar[0]);
#endif
  OUT_store(operand_address(0, i), keep ? OUT_load(operand_address(1, i)) : OUT_CAST(0));
}

void main() { FOR_EACH_ELEMENT(element) }
