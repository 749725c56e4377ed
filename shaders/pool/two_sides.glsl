// What avg_pool2d.comp and adaptive_avg_pool2d.comp share: the parameter
// words csrc/aten/ops/pool/planes.h writes for an input side (input or
// grad_input) and an output side (output or grad_output), and the element
// an invocation writes (an output element forward, an input element
// backward).
layout(push_constant) uniform Args {
  uint64_t params;
} args;

// int64 words: 0 input-side, 1 output-side addresses; 2 planes (N * C), 3 C,
// 4 H, 5 W, 6 out H, 7 out W; 8-11 strides (elements) n, c, h, w of the
// input side, 12-15 of the output side; 16 on: the kernel's own.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

Params p;

uint64_t input_at(int64_t n, int64_t c, int64_t h, int64_t w) {
  return uint64_t(p.v[0]) + uint64_t(n * p.v[8] + c * p.v[9] + h * p.v[10] + w * p.v[11]) * X_BYTES;
}

uint64_t output_at(int64_t n, int64_t c, int64_t oh, int64_t ow) {
  return uint64_t(p.v[1]) + uint64_t(n * p.v[12] + c * p.v[13] + oh * p.v[14] + ow * p.v[15]) * X_BYTES;
}

// Reads the parameters and finds the element this invocation writes; false
// past the last one.
bool locate(out int64_t n, out int64_t c, out int64_t row, out int64_t col) {
  p = Params(args.params);
#ifdef OP_forward
  int64_t rows = p.v[6], cols = p.v[7];
#else
  int64_t rows = p.v[4], cols = p.v[5];
#endif
  int64_t i = int64_t(global_index());
  if (i >= p.v[2] * rows * cols) return false;
  int64_t plane = i / (cols * rows);
  col = i % cols;
  row = (i / cols) % rows;
  n = plane / p.v[3];
  c = plane % p.v[3];
  return true;
}
