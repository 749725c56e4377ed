// Byte offsets of advanced indexing, one index tensor at a time:
// out = acc + wrap(index) * scalar[0], with scalar[1] the indexed dimension's
// size. Operands: 0 out, 1 acc, 2 the int64 index. An index out of range is
// reported (common/fault.glsl) and makes the offset -2^62, which the gather
// and scatter kernels skip (their size check, and so their report, is
// skipped for offsets: scalar[1] == 0 there).
#include "common/strided.glsl"
#include "index/bits.glsl"

void element(uint64_t i) {
  int64_t index = wrap_index(RefI64(operand_address(2, i)).v, int64_t(args.scalar[1]));
  int64_t acc = RefI64(operand_address(1, i)).v;
  RefI64(operand_address(0, i)).v = index < 0 || acc < 0 ? -(int64_t(1) << 62) : acc + index * int64_t(args.scalar[0]);
}

void main() { FOR_EACH_ELEMENT(element) }
