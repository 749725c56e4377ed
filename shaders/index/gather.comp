// out = src[index]: operand 0 out, 1 src (restrided so that the indexed
// dimension has stride 0), 2 the int64 index. scalar[0]: the indexed
// dimension's stride in bytes; scalar[1]: its size (0: indices are already
// offsets in units of scalar[0]); scalar[2]: flags (index/bits.glsl's
// index_in). Indices out of range read as zero and are
// reported (common/fault.glsl): the kernel never touches memory outside the
// source.
#include "common/strided.glsl"
#include "index/bits.glsl"

void element(uint64_t i) {
  int64_t index = index_in(RefI64(operand_address(2, i)).v, int64_t(args.scalar[1]), args.scalar[2]);
  uint64_t dst = operand_address(0, i);
  if (index < 0) {
    zero_element(dst);
    return;
  }
  copy_element(dst, operand_address(1, i) + uint64_t(index * int64_t(args.scalar[0])));
}

void main() { FOR_EACH_ELEMENT(element) }
