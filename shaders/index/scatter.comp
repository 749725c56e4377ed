// dst[index] = src: operand 0 dst (restrided so that the indexed dimension has
// stride 0), 1 src, 2 the int64 index; scalars as in gather.comp. Indices out
// of range write nothing. Where several indices hit one element, one of the
// writes wins, as on CUDA.
#include "common/strided.glsl"
#include "index/bits.glsl"

void element(uint64_t i) {
  int64_t index = index_in(RefI64(operand_address(2, i)).v, int64_t(args.scalar[1]), args.scalar[2]);
  if (index < 0) return;
  copy_element(operand_address(0, i) + uint64_t(index * int64_t(args.scalar[0])), operand_address(1, i));
}

void main() { FOR_EACH_ELEMENT(element) }
