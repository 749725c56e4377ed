// max_pool{2,3}d_with_indices (OP_window) and adaptive_max_pool{2,3}d
// (OP_adaptive), one invocation per output element, as the CPU's kernels
// (2-D pooling as D = 1). The window keeps its first largest value, a NaN
// replacing it, and its index counts positions in the input's D x H x W
// volume. OP_window: the window is dilated and clipped to the input
// (padding adds no values); one wholly in the padding, which dilation
// allows, yields the lowest value and its first position, as on the CPU.
// OP_adaptive: output position o of a dimension covers input positions
// [floor(o * size / outs), ceil((o + 1) * size / outs)).
// OP_fractional (fractional_max_pool{2,3}d): windows of the kernel's size
// starting at the CPU's pseudo-random intervals: with alpha = (size - k) /
// (outs - 1) and the plane's sample u for the dimension, output o < outs -
// 1 starts at trunc((o + u) alpha) - trunc(u alpha), the last at size - k.
#include "common/volume.glsl"

// Words from 20 (csrc/aten/ops/pool/max_pool.cpp): 20 the indices' address,
// 21-25 their strides n, c, d, h, w (elements); OP_window: 26-28 kernel,
// 29-31 stride, 32-34 padding, 35-37 dilation (d, h, w each);
// OP_fractional: 26-28 kernel, 29 the samples' address, 30-32 their strides
// (n, c, sample), 33-35 the sample of each dimension (-1: none, D of 2-D).

#if defined(X_DT_F16) || defined(X_DT_BF16) || defined(X_DT_F32) || defined(X_DT_F64)
X_T lowest() { return X_T(-1.0 / 0.0); }
bool takes(X_T v, X_T best) { return v > best || isnan(v); }
#else
#if defined(X_DT_I64)
X_T lowest() { return int64_t(0x8000000000000000ul); }
#else
X_T lowest() { return int(0x80000000u); }  // stored, the narrower types' own lowest
#endif
bool takes(X_T v, X_T best) { return v > best; }
#endif

// Output position o's window along dimension d in plane (n, c): first
// position, end, step.
void window(int d, int64_t n, int64_t c, int64_t o, out int64_t first, out int64_t end, out int64_t step) {
  int64_t size = p.v[4 + d];
#if defined(OP_fractional)
  int64_t k = p.v[26 + d], outs = p.v[7 + d], slot = p.v[33 + d];
  step = 1;
  first = 0;
  if (slot >= 0) {
    X_T u = X_load(uint64_t(p.v[29]) + uint64_t(n * p.v[30] + c * p.v[31] + slot * p.v[32]) * X_BYTES);
    X_T alpha = X_T(size - k) / X_T(outs - 1);
    first = o == outs - 1 ? size - k : int64_t((X_T(o) + u) * alpha) - int64_t(u * alpha);
  }
  end = first + k;
#elif defined(OP_adaptive)
  int64_t outs = p.v[7 + d];
  first = (o * size) / outs;
  end = ((o + 1) * size + outs - 1) / outs;
  step = 1;
#else
  step = p.v[35 + d];
  first = o * p.v[29 + d] - p.v[32 + d];
  end = min(first + (p.v[26 + d] - 1) * step + 1, size);
  while (first < 0) first += step;
#endif
}

void main() {
  int64_t n, c, z, y, x;
  if (!locate(n, c, z, y, x)) return;
  int64_t z0, z1, sz, y0, y1, sy, x0, x1, sx;
  window(0, n, c, z, z0, z1, sz);
  window(1, n, c, y, y0, y1, sy);
  window(2, n, c, x, x0, x1, sx);
  int64_t H = p.v[5], W = p.v[6];
  X_T best = lowest();
  int64_t best_index = (z0 * H + y0) * W + x0;
  for (int64_t d = z0; d < z1; d += sz) {
    for (int64_t h = y0; h < y1; h += sy) {
      for (int64_t w = x0; w < x1; w += sx) {
        X_T v = X_load(at(0, n, c, d, h, w));
        if (takes(v, best)) {
          best = v;
          best_index = (d * H + h) * W + w;
        }
      }
    }
  }
  X_store(at(1, n, c, z, y, x), best);
  RefI64(uint64_t(p.v[20]) + uint64_t(n * p.v[21] + c * p.v[22] + z * p.v[23] + y * p.v[24] + x * p.v[25]) * 8u).v =
      best_index;
}
