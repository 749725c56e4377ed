// avg_pool2d and its backward, one invocation per element written, as the
// CPU's kernels: a window counts the padding it covers up to H + padding (W
// likewise), sums only the input it covers, and divides by divisor_override,
// else by its size with padding (count_include_pad) or without.
//   forward:  out[oh, ow] = sum of in over the window / divisor(oh, ow)
//   backward: grad_in[h, w] = sum over the windows holding (h, w) of
//             grad_out[oh, ow] / divisor(oh, ow)
// Integers sum in int64 and divide with truncation, as the CPU does.
#include "pool/two_sides.glsl"

// Words 16-17 kernel, 18-19 stride, 20-21 padding (h, w); 22
// count_include_pad; 23 divisor_override (0: none).

#if defined(X_DT_F16) || defined(X_DT_BF16) || defined(X_DT_F32) || defined(X_DT_F64)
#define SUM_T X_T
#else
#define SUM_T int64_t
#endif

// The window of output (oh, ow), clipped to the input, and its divisor.
void window(int64_t oh, int64_t ow, out int64_t h0, out int64_t w0, out int64_t h1, out int64_t w1,
            out int64_t divisor) {
  int64_t H = p.v[4], W = p.v[5], ph = p.v[20], pw = p.v[21];
  h0 = oh * p.v[18] - ph;
  w0 = ow * p.v[19] - pw;
  h1 = min(h0 + p.v[16], H + ph);
  w1 = min(w0 + p.v[17], W + pw);
  int64_t pool_size = (h1 - h0) * (w1 - w0);
  h0 = max(h0, int64_t(0));
  w0 = max(w0, int64_t(0));
  h1 = min(h1, H);
  w1 = min(w1, W);
  divisor = p.v[23] != 0 ? p.v[23] : (p.v[22] != 0 ? pool_size : (h1 - h0) * (w1 - w0));
}

void main() {
  int64_t n, c, row, col;
  if (!locate(n, c, row, col)) return;
  SUM_T sum = SUM_T(0);
#ifdef OP_forward
  int64_t h0, w0, h1, w1, divisor;
  window(row, col, h0, w0, h1, w1, divisor);
  if (h0 < h1 && w0 < w1) {
    for (int64_t h = h0; h < h1; ++h)
      for (int64_t w = w0; w < w1; ++w) sum += SUM_T(X_load(input_at(n, c, h, w)));
    sum /= SUM_T(divisor);
  }
  X_store(output_at(n, c, row, col), X_T(sum));
#else
  // The outputs whose window starts (oh * stride - padding) lie in
  // (h - kernel, h], within the output.
  int64_t kh = p.v[16], kw = p.v[17], sh = p.v[18], sw = p.v[19], ph = p.v[20], pw = p.v[21];
  int64_t low_h = row + ph - kh + 1, low_w = col + pw - kw + 1;
  int64_t oh0 = low_h <= 0 ? 0 : (low_h + sh - 1) / sh, ow0 = low_w <= 0 ? 0 : (low_w + sw - 1) / sw;
  int64_t oh1 = min((row + ph) / sh, p.v[6] - 1), ow1 = min((col + pw) / sw, p.v[7] - 1);
  for (int64_t oh = oh0; oh <= oh1; ++oh) {
    for (int64_t ow = ow0; ow <= ow1; ++ow) {
      int64_t h0, w0, h1, w1, divisor;
      window(oh, ow, h0, w0, h1, w1, divisor);
      sum += SUM_T(X_load(output_at(n, c, oh, ow))) / SUM_T(divisor);
    }
  }
  X_store(input_at(n, c, row, col), X_T(sum));
#endif
}
