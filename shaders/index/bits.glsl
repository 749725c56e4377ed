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

// An index into a dimension of `size` elements, negative ones counted from the
// end; -1 when out of range (size 0: the index is used as it is).
int64_t wrap_index(int64_t index, int64_t size) {
  if (size == 0) return index;
  if (index < 0) index += size;
  return index >= 0 && index < size ? index : -1;
}
