// The parameter block csrc/aten/ops/conv/columns.cpp writes for im2col.comp
// and col2im.comp, int64 words:
//   0 the image's address, 1 the columns'; 2 N, 3 C (all groups' channels),
//   4 taps (kernel positions); 5-7 the image's D, H, W; 8-10 the kernel's;
//   11-13 the output positions'; 14-16 stride; 17-19 padding; 20-22
//   dilation; 23-27 the image's strides n, c, d, h, w (elements); 28-30 the
//   columns' strides n, row, position (elements), a row being (c, tap) as
//   c * taps + tap; 31 flags (im2col: 1, rows may be written in 16-byte
//   vectors).
// Spatial sizes are below 2^31 (the host checks), so coordinates within an
// image or a row are 32-bit.
layout(push_constant) uniform Args {
  uint64_t params;
} args;

layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

Params p;

ivec3 words3(int first) { return ivec3(p.v[first], p.v[first + 1], p.v[first + 2]); }

// The kernel offset (z, y, x) of tap t.
ivec3 tap_offset(int t, ivec3 kernel) {
  return ivec3(t / (kernel.y * kernel.z), (t / kernel.z) % kernel.y, t % kernel.z);
}
