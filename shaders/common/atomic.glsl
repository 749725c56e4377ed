// dst = combine(dst, value) as one atomic read-modify-write, for any dtype
// (the includer defines X_T combine(X_T, X_T)):
// a compare-and-swap loop on the aligned 32-bit word holding the element (or
// on the 64-bit element itself). Vulkan has no portable float atomic add and
// no 8/16-bit atomics, while 32-bit CAS is core and 64-bit CAS is
// shaderBufferInt64Atomics, so this one loop covers every dtype and every
// reduction (sum, prod, amax, amin) in one pass over the updates. Float sums
// land in whatever order the updates arrive, as with CUDA's atomicAdd.
#if X_BYTES == 8
#extension GL_EXT_shader_atomic_int64 : require
#endif
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Word32 { uint v; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Word64 { uint64_t v; };

#if X_BYTES == 8
X_T decode(uint64_t bits) {
#ifdef X_DT_F64
  return uint64BitsToDouble(bits);
#else
  return int64_t(bits);
#endif
}
uint64_t encode(X_T v) {
#ifdef X_DT_F64
  return doubleBitsToUint64(v);
#else
  return uint64_t(v);
#endif
}
#else
// `bits` holds the element in its low X_BYTES bytes.
X_T decode(uint bits) {
#if defined(X_DT_F32)
  return uintBitsToFloat(bits);
#elif defined(X_DT_F16)
  return unpackHalf2x16(bits).x;
#elif defined(X_DT_BF16)
  return uintBitsToFloat(bits << 16);
#elif defined(X_DT_B8)
  return bits != 0u;
#elif defined(X_DT_I8)
  return bitfieldExtract(int(bits), 0, 8);
#elif defined(X_DT_I16)
  return bitfieldExtract(int(bits), 0, 16);
#else  // u8, i32
  return int(bits);
#endif
}
uint encode(X_T v) {
#if defined(X_DT_F32)
  return floatBitsToUint(v);
#elif defined(X_DT_F16)
  return f32_to_f16_bits(v);
#elif defined(X_DT_BF16)
  return f32_to_bf16_bits(v);
#elif defined(X_DT_B8)
  return v ? 1u : 0u;
#elif X_BYTES == 4
  return uint(v);
#else
  return uint(v) & ((1u << (8 * X_BYTES)) - 1u);
#endif
}
#endif

void atomic_combine(uint64_t address, X_T value) {
#if X_BYTES == 8
  Word64 word = Word64(address);
  uint64_t old = word.v;
  for (;;) {
    uint64_t next = encode(combine(decode(old), value));
    if (next == old) return;
    uint64_t seen = atomicCompSwap(word.v, old, next);
    if (seen == old) return;
    old = seen;
  }
#else
  Word32 word = Word32(address & ~uint64_t(3));
  uint shift = uint(address & 3) * 8;
  uint mask = X_BYTES == 4 ? 0xFFFFFFFFu : ((1u << (8 * X_BYTES)) - 1u) << shift;
  uint old = word.v;
  for (;;) {
    uint element = encode(combine(decode((old & mask) >> shift), value));
    uint next = (old & ~mask) | (element << shift);
    if (next == old) return;
    uint seen = atomicCompSwap(word.v, old, next);
    if (seen == old) return;
    old = seen;
  }
#endif
}
