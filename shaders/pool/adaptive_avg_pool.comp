// _adaptive_avg_pool{2,3}d and their backwards, one invocation per element
// written, as the CPU's kernels (2-D pooling as D = 1): output position o
// of a dimension averages input positions [floor(o * size / outs),
// ceil((o + 1) * size / outs)).
//   forward:  out[o] = mean of in over the window of o
//   backward: grad_in[i] = sum over the windows holding i of
//             grad_out[o] / window size
#include "common/volume.glsl"

int64_t first(int64_t o, int64_t outs, int64_t ins) { return (o * ins) / outs; }
int64_t last(int64_t o, int64_t outs, int64_t ins) { return ((o + 1) * ins + outs - 1) / outs; }

#ifdef OP_backward
// Whether output position o's window along dimension d holds input
// position i; its extent.
bool holds(int d, int64_t o, int64_t i, out int64_t extent) {
  int64_t ins = p.v[4 + d], outs = p.v[7 + d];
  int64_t a = first(o, outs, ins), b = last(o, outs, ins);
  extent = b - a;
  return a <= i && i < b;
}
#endif

void main() {
  int64_t n, c, z, y, x;
  if (!locate(n, c, z, y, x)) return;
  int64_t D = p.v[4], H = p.v[5], W = p.v[6], Do = p.v[7], Ho = p.v[8], Wo = p.v[9];
  X_T sum = X_T(0);
#ifdef OP_forward
  int64_t z0 = first(z, Do, D), z1 = last(z, Do, D), y0 = first(y, Ho, H), y1 = last(y, Ho, H);
  int64_t x0 = first(x, Wo, W), x1 = last(x, Wo, W);
  for (int64_t d = z0; d < z1; ++d)
    for (int64_t h = y0; h < y1; ++h)
      for (int64_t w = x0; w < x1; ++w) sum += X_load(at(0, n, c, d, h, w));
  X_store(at(1, n, c, z, y, x), sum / X_T((z1 - z0) * (y1 - y0) * (x1 - x0)));
#else
  // The windows that hold (z, y, x): per dimension, the outputs from the one
  // whose window starts at or before it to the one whose window ends after it.
  for (int64_t od = first(z, D, Do); od < last(z, D, Do); ++od) {
    int64_t ez;
    if (!holds(0, od, z, ez)) continue;
    for (int64_t oh = first(y, H, Ho); oh < last(y, H, Ho); ++oh) {
      int64_t ey;
      if (!holds(1, oh, y, ey)) continue;
      for (int64_t ow = first(x, W, Wo); ow < last(x, W, Wo); ++ow) {
        int64_t ex;
        if (holds(2, ow, x, ex)) sum += X_load(at(1, n, c, od, oh, ow)) / X_T(ez * ey * ex);
      }
    }
  }
  X_store(at(0, n, c, z, y, x), sum);
#endif
}
