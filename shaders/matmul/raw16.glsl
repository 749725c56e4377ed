// 16-byte vectors of an operand read as raw bits and decoded value by value
// at use (the tile-less kernels: holding the bits takes half the registers
// of their float32 values for 16-bit types).
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Raw16 { uvec4 v; };

// Element e of a 16-byte vector of X's raw bits.
float element(uvec4 w, int e) {
#if X_BYTES == 4
  return X_from_bits(w[e]);
#else
  return X_from_bits(bitfieldExtract(w[e / 2], 16 * (e % 2), 16));
#endif
}
