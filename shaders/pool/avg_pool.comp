// avg_pool{2,3}d and their backwards, one invocation per element written,
// as the CPU's kernels (2-D pooling as D = 1): a window counts the padding
// it covers up to size + padding along each dimension, sums only the input
// it covers, and divides by divisor_override, else by its size with padding
// (count_include_pad) or without.
//   forward:  out[o] = sum of in over the window of o / divisor(o)
//   backward: grad_in[i] = sum over the windows holding i of
//             grad_out[o] / divisor(o)
// Integers sum in int64 and divide with truncation, as the CPU does.
#include "common/volume.glsl"

// Words from 20 (csrc/aten/ops/pool/avg_pool.cpp): 20-22 kernel, 23-25
// stride, 26-28 padding (d, h, w each); 29 count_include_pad; 30
// divisor_override (0: none).

#if defined(X_DT_F16) || defined(X_DT_BF16) || defined(X_DT_F32) || defined(X_DT_F64)
#define SUM_T X_T
#else
#define SUM_T int64_t
#endif

// Output position o's window along dimension d, clipped to the input
// ([first, end)), and its extent counting padding.
void window(int d, int64_t o, out int64_t first, out int64_t end, out int64_t padded) {
  int64_t size = p.v[4 + d], pad = p.v[26 + d];
  first = o * p.v[23 + d] - pad;
  end = min(first + p.v[20 + d], size + pad);
  padded = end - first;
  first = max(first, int64_t(0));
  end = min(end, size);
}

int64_t divisor(int64_t padded, int64_t clipped) {
  return p.v[30] != 0 ? p.v[30] : (p.v[29] != 0 ? padded : clipped);
}

#ifdef OP_backward
// The outputs along dimension d whose window starts (o * stride - padding)
// lie in (i - kernel, i], within the output.
void readers(int d, int64_t i, out int64_t first, out int64_t last) {
  int64_t k = p.v[20 + d], s = p.v[23 + d], pad = p.v[26 + d];
  int64_t low = i + pad - k + 1;
  first = low <= 0 ? 0 : (low + s - 1) / s;
  last = min((i + pad) / s, p.v[7 + d] - 1);
}
#endif

void main() {
  int64_t n, c, z, y, x;
  if (!locate(n, c, z, y, x)) return;
  SUM_T sum = SUM_T(0);
#ifdef OP_forward
  int64_t z0, z1, pz, y0, y1, py, x0, x1, px;
  window(0, z, z0, z1, pz);
  window(1, y, y0, y1, py);
  window(2, x, x0, x1, px);
  if (z0 < z1 && y0 < y1 && x0 < x1) {
    for (int64_t d = z0; d < z1; ++d)
      for (int64_t h = y0; h < y1; ++h)
        for (int64_t w = x0; w < x1; ++w) sum += SUM_T(X_load(at(0, n, c, d, h, w)));
    sum /= SUM_T(divisor(pz * py * px, (z1 - z0) * (y1 - y0) * (x1 - x0)));
  }
  X_store(at(1, n, c, z, y, x), X_T(sum));
#else
  int64_t fz, lz, fy, ly, fx, lx;
  readers(0, z, fz, lz);
  readers(1, y, fy, ly);
  readers(2, x, fx, lx);
  for (int64_t od = fz; od <= lz; ++od) {
    int64_t z0, z1, pz;
    window(0, od, z0, z1, pz);
    for (int64_t oh = fy; oh <= ly; ++oh) {
      int64_t y0, y1, py;
      window(1, oh, y0, y1, py);
      for (int64_t ow = fx; ow <= lx; ++ow) {
        int64_t x0, x1, px;
        window(2, ow, x0, x1, px);
        sum += SUM_T(X_load(at(1, n, c, od, oh, ow))) /
               SUM_T(divisor(pz * py * px, (z1 - z0) * (y1 - y0) * (x1 - x0)));
      }
    }
  }
  X_store(at(0, n, c, z, y, x), X_T(sum));
#endif
}
