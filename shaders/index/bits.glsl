// Element access by width only, for kernels that move data without looking at it.
layout(buffer_reference, std430, buffer_reference_align = 1) buffer Bits1 { uint8_t v; };
layout(buffer_reference, std430, buffer_reference_align = 2) buffer Bits2 { uint16_t v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Bits4 { uint v; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Bits8 { uint64_t v; };

void copy_element(uint64_t dst, uint64_t src) {
#if WIDTH == 1
  Bits1(dst).v = Bits1(src).v;
#elif WIDTH == 2
  Bits2(dst).v = Bits2(src).v;
#elif WIDTH == 4
  Bits4(dst).v = Bits4(src).v;
#else
  Bits8(dst).v = Bits8(src).v;
#endif
}

void zero_element(uint64_t dst) {
#if WIDTH == 1
  Bits1(dst).v = uint8_t(0);
#elif WIDTH == 2
  Bits2(dst).v = uint16_t(0);
#elif WIDTH == 4
  Bits4(dst).v = 0u;
#else
  Bits8(dst).v = uint64_t(0);
#endif
}

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
