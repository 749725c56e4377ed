// 16-byte vectors of X read as raw bits and decoded value by value where
// they are used (gemm_rows.comp, gemm_dot.comp): one load, and no registers
// held for converted values before they are needed.
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Raw16 { uvec4 v; };

// Element e of a 16-byte vector of X's raw bits.
float element(uvec4 w, int e) {
#if X_BYTES == 4
  return X_from_bits(w[e]);
#else
  return X_from_bits(bitfieldExtract(w[e / 2], 16 * (e % 2), 16));
#endif
}

// The 4-byte loads of gemm_rows.comp's narrow form r12b4.
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Raw4 { uint v; };

float element(uint w, int e) { return element(uvec4(w, 0u, 0u, 0u), e); }
