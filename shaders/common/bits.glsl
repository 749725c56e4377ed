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

// The bits of the element at `address`, widened to 64, and their store.
uint64_t load_bits(uint64_t address) {
#if WIDTH == 1
  return uint64_t(Bits1(address).v);
#elif WIDTH == 2
  return uint64_t(Bits2(address).v);
#elif WIDTH == 4
  return uint64_t(Bits4(address).v);
#else
  return Bits8(address).v;
#endif
}

void store_bits(uint64_t address, uint64_t bits) {
#if WIDTH == 1
  Bits1(address).v = uint8_t(bits);
#elif WIDTH == 2
  Bits2(address).v = uint16_t(bits);
#elif WIDTH == 4
  Bits4(address).v = uint(bits);
#else
  Bits8(address).v = bits;
#endif
}
