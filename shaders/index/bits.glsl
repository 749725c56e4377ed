// Index checks for the kernels that move data by width (common/bits.glsl).
#include "common/bits.glsl"
#include "common/fault.glsl"

// An index into a dimension of `size` elements, as gather, scatter and
// index_select take them: -1, reported (common/fault.glsl), outside [0,
// size). Size 0: the index is an offset made by offset.comp, used as it is.
int64_t check_index(int64_t index, int64_t size) {
  if (size == 0 || (index >= 0 && index < size)) return index;
  report_fault(FAULT_INDEX);
  return -1;
}

// As advanced indexing and take take them: negative ones count from the end.
int64_t wrap_index(int64_t index, int64_t size) {
  return check_index(index < 0 && size != 0 ? index + size : index, size);
}

// The gather and scatter kernels' flags word (args.scalar[2]): bit 0 skips
// updates whose index is args.scalar[3] (scatter_reduce), bit 1 counts
// negative indices from the end (kernels.h's IndexFlags).
int64_t index_in(int64_t index, int64_t size, uint64_t flags) {
  return (flags & 2ul) != 0ul ? wrap_index(index, size) : check_index(index, size);
}
