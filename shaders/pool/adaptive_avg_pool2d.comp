// _adaptive_avg_pool2d and its backward, one invocation per element written,
// as the CPU's kernels: output row oh averages input rows
// [floor(oh * H / Ho), ceil((oh + 1) * H / Ho)), columns likewise.
//   forward:  out[oh, ow] = mean of in over the window
//   backward: grad_in[h, w] = sum over the windows holding (h, w) of
//             grad_out[oh, ow] / window size
#include "pool/two_sides.glsl"

int64_t first(int64_t o, int64_t outs, int64_t ins) { return (o * ins) / outs; }
int64_t last(int64_t o, int64_t outs, int64_t ins) { return ((o + 1) * ins + outs - 1) / outs; }

void main() {
  int64_t n, c, row, col;
  if (!locate(n, c, row, col)) return;
  int64_t H = p.v[4], W = p.v[5], Ho = p.v[6], Wo = p.v[7];
  X_T sum = X_T(0);
#ifdef OP_forward
  int64_t h0 = first(row, Ho, H), h1 = last(row, Ho, H), w0 = first(col, Wo, W), w1 = last(col, Wo, W);
  for (int64_t h = h0; h < h1; ++h)
    for (int64_t w = w0; w < w1; ++w) sum += X_load(input_at(n, c, h, w));
  X_store(output_at(n, c, row, col), sum / X_T((h1 - h0) * (w1 - w0)));
#else
  // The windows that hold (row, col): the outputs from the one whose window
  // starts at or before it to the one whose window ends after it.
  for (int64_t oh = first(row, H, Ho); oh < last(row, H, Ho); ++oh) {
    int64_t h0 = first(oh, Ho, H), h1 = last(oh, Ho, H);
    if (row < h0 || row >= h1) continue;
    for (int64_t ow = first(col, W, Wo); ow < last(col, W, Wo); ++ow) {
      int64_t w0 = first(ow, Wo, W), w1 = last(ow, Wo, W);
      if (col < w0 || col >= w1) continue;
      sum += X_load(output_at(n, c, oh, ow)) / X_T((h1 - h0) * (w1 - w0));
    }
  }
  X_store(input_at(n, c, row, col), sum);
#endif
}
