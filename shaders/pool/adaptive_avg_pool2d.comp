// _adaptive_avg_pool2d and its backward, one invocation per element written,
// as the CPU's kernels: output row oh averages input rows
// [floor(oh * H / Ho), ceil((oh + 1) * H / Ho)), columns likewise.
//   forward:  out[oh, ow] = mean of in over the window
//   backward: grad_in[h, w] = sum over the windows holding (h, w) of
//             grad_out[oh, ow] / window size
layout(push_constant) uniform Args {
  uint64_t params;
} args;

// int64 words (csrc/aten/ops/pool/planes.h): 0 input-side (input or
// grad_input), 1 output-side (output or grad_output) addresses; 2 planes (N * C), 3 C,
// 4 H, 5 W, 6 out H, 7 out W; 8-11 strides (elements) n, c, h, w of the
// input side (input or grad_input), 12-15 of the output side.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

Params p;

int64_t first(int64_t o, int64_t outs, int64_t ins) { return (o * ins) / outs; }
int64_t last(int64_t o, int64_t outs, int64_t ins) { return ((o + 1) * ins + outs - 1) / outs; }

uint64_t input_side(int64_t n, int64_t c, int64_t h, int64_t w) {
  return uint64_t(n * p.v[8] + c * p.v[9] + h * p.v[10] + w * p.v[11]) * X_BYTES;
}

uint64_t output_side(int64_t n, int64_t c, int64_t oh, int64_t ow) {
  return uint64_t(n * p.v[12] + c * p.v[13] + oh * p.v[14] + ow * p.v[15]) * X_BYTES;
}

void main() {
  p = Params(args.params);
  int64_t C = p.v[3], H = p.v[4], W = p.v[5], Ho = p.v[6], Wo = p.v[7];
  uint64_t input_base = uint64_t(p.v[0]), output_base = uint64_t(p.v[1]);
  int64_t i = int64_t(global_index());
#ifdef OP_forward
  int64_t rows = Ho, cols = Wo;
#else
  int64_t rows = H, cols = W;
#endif
  if (i >= p.v[2] * rows * cols) return;
  int64_t col = i % cols, row = (i / cols) % rows, plane = i / (cols * rows), n = plane / C, c = plane % C;
  X_T sum = X_T(0);
#ifdef OP_forward
  int64_t h0 = first(row, Ho, H), h1 = last(row, Ho, H), w0 = first(col, Wo, W), w1 = last(col, Wo, W);
  for (int64_t h = h0; h < h1; ++h)
    for (int64_t w = w0; w < w1; ++w) sum += X_load(input_base + input_side(n, c, h, w));
  X_store(output_base + output_side(n, c, row, col), sum / X_T((h1 - h0) * (w1 - w0)));
#else
  // The windows that hold (row, col): the outputs from the one whose window
  // starts at or before it to the one whose window ends after it.
  for (int64_t oh = first(row, H, Ho); oh < last(row, H, Ho); ++oh) {
    int64_t h0 = first(oh, Ho, H), h1 = last(oh, Ho, H);
    if (row < h0 || row >= h1) continue;
    for (int64_t ow = first(col, W, Wo); ow < last(col, W, Wo); ++ow) {
      int64_t w0 = first(ow, Wo, W), w1 = last(ow, Wo, W);
      if (col < w0 || col >= w1) continue;
      sum += X_load(output_base + output_side(n, c, oh, ow)) / X_T((h1 - h0) * (w1 - w0));
    }
  }
  X_store(input_base + input_side(n, c, row, col), sum);
#endif
}
