// What the kernels launched through csrc/aten/ops/volume.h share: the
// parameter words it writes for an input side (input, or grad_input in a
// backward) and an output side (output, or grad_output) seen as [N, C, D,
// H, W], and the element an invocation writes: one of the output side's, or
// of the input side's in backward kernels (OP_backward).
layout(push_constant) uniform Args {
  uint64_t params;
} args;

// int64 words: 0 input-side, 1 output-side addresses; 2 planes (N * C), 3 C;
// 4-6 input-side D, H, W; 7-9 output side's; 10-14 input-side strides n, c,
// d, h, w (elements), 15-19 output side's; from 20 the kernel's own.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

Params p;

// The address of element (n, c, z, y, x) of side 0 (input) or 1 (output).
uint64_t at(int side, int64_t n, int64_t c, int64_t z, int64_t y, int64_t x) {
  int s = 10 + 5 * side;
  return uint64_t(p.v[side]) +
         uint64_t(n * p.v[s] + c * p.v[s + 1] + z * p.v[s + 2] + y * p.v[s + 3] + x * p.v[s + 4]) * X_BYTES;
}

// Reads the parameters and finds the element this invocation writes; false
// past the last one.
bool locate(out int64_t n, out int64_t c, out int64_t z, out int64_t y, out int64_t x) {
  p = Params(args.params);
#ifdef OP_backward
  int side = 4;
#else
  int side = 7;
#endif
  int64_t D = p.v[side], H = p.v[side + 1], W = p.v[side + 2];
  int64_t i = int64_t(global_index());
  if (i >= p.v[2] * D * H * W) return false;
  x = i % W;
  y = (i / W) % H;
  z = (i / (W * H)) % D;
  int64_t plane = i / (W * H * D);
  n = plane / p.v[3];
  c = plane % p.v[3];
  return true;
}
