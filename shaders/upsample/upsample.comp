// upsample_* (nearest, nearest-exact, linear, cubic) over one to three
// spatial dimensions, one invocation per element written, as the CPU's
// kernels. Each output position o of a dimension reads up to four input
// positions (taps) with weights; the dimensions are separable:
//   forward:  out[od, oh, ow] = sum over taps of wd * wh * ww * in[id, ih, iw]
//   backward: grad_in[id, ih, iw] = sum over the outputs whose taps hold it
//             of wd * wh * ww * grad_out[od, oh, ow]
// The backward gathers (no atomics): per dimension it scans a range of
// outputs that surely holds every one whose taps reach the input position
// and recomputes their taps exactly as the forward does.
#include "common/volume.glsl"

// Words from 20 (csrc/aten/ops/upsample/upsample.cpp): 20-22 mode per
// dimension; 23-25 scale per dimension as float bits, 26-28 as double bits
// (float64 interpolation); 29 align_corners.

const int NEAREST = 0, NEAREST_EXACT = 1, LINEAR = 2, CUBIC = 3;

#ifdef OP_nearest
#define W_T float  // integer dtypes too: nearest only copies
#else
#define W_T X_T
#endif

W_T scale(int d) {
#if defined(X_DT_F64) && !defined(OP_nearest)
  return int64BitsToDouble(p.v[26 + d]);
#else
  return uintBitsToFloat(uint(p.v[23 + d]));
#endif
}

#include "upsample/cubic.glsl"

// The input positions output position o of dimension d reads and their
// weights; returns how many.
int taps(int d, int64_t o, out int64_t index[4], out W_T weight[4]) {
  int64_t size = p.v[4 + d];
  int mode = int(p.v[20 + d]);
  if (mode == NEAREST || mode == NEAREST_EXACT) {
    // The CPU computes nearest positions in float for every dtype.
    float s = uintBitsToFloat(uint(p.v[23 + d]));
    precise float source = mode == NEAREST ? float(o) * s : (float(o) + 0.5) * s;
    index[0] = min(int64_t(floor(source)), size - 1);
    weight[0] = W_T(1);
    return 1;
  }
  bool align = p.v[29] != 0;
  W_T s = scale(d);
  precise W_T source = align ? s * W_T(o) : s * (W_T(o) + W_T(0.5)) - W_T(0.5);
  if (mode == LINEAR && source < W_T(0)) source = W_T(0);
  int64_t first = min(int64_t(floor(source)), size - 1);
  W_T t = clamp(source - W_T(first), W_T(0), W_T(1));
  if (mode == LINEAR) {
    index[0] = first;
    index[1] = first + (first < size - 1 ? 1 : 0);
    weight[0] = W_T(1) - t;
    weight[1] = t;
    return 2;
  }
  cubic_weights(t, weight);
  for (int k = 0; k < 4; ++k) index[k] = clamp(first - 1 + k, int64_t(0), size - 1);
  return 4;
}

#ifdef OP_backward
// Whether output position o of dimension d reads input position i, and the
// sum of its weights there.
bool reaches(int d, int64_t o, int64_t i, out W_T w) {
  int64_t index[4];
  W_T weight[4];
  int n = taps(d, o, index, weight);
  bool found = false;
  w = W_T(0);
  for (int k = 0; k < n; ++k) {
    if (index[k] == i) {
      w += weight[k];
      found = true;
    }
  }
  return found;
}

// Output positions of dimension d from lo to hi hold every one whose taps
// reach input position i: taps reach i when the source coordinate lies in
// [i, i + 1) (nearest) or [i - 2, i + 2) (linear, cubic), widened by one
// position for rounding, and to the ends where clamping sends every
// outside position to the first or last input.
void candidates(int d, int64_t i, out int64_t lo, out int64_t hi) {
  int64_t size = p.v[4 + d], outs = p.v[7 + d];
  int mode = int(p.v[20 + d]);
  W_T s = mode <= NEAREST_EXACT ? W_T(uintBitsToFloat(uint(p.v[23 + d]))) : scale(d);
  lo = 0;
  hi = outs - 1;
  if (s <= W_T(0)) return;
  W_T shift = mode == NEAREST_EXACT ? W_T(0.5) * s
              : mode == NEAREST || p.v[29] != 0 ? W_T(0)
                                                : W_T(0.5) * s - W_T(0.5);
  W_T from = mode <= NEAREST_EXACT ? W_T(i) : W_T(i) - W_T(2);
  W_T to = mode <= NEAREST_EXACT ? W_T(i + 1) : W_T(i) + W_T(2);
  W_T last = W_T(outs);
  if (i > 0) lo = int64_t(clamp(floor((from - shift) / s) - W_T(1), W_T(0), last));
  if (i < size - 1) hi = int64_t(clamp(ceil((to - shift) / s) + W_T(1), W_T(0), last - W_T(1)));
}
#endif

void main() {
  int64_t n, c, z, y, x;
  if (!locate(n, c, z, y, x)) return;
#ifdef OP_nearest
  int64_t iz[4], iy[4], ix[4];
  W_T wz[4], wy[4], wx[4];
  taps(0, z, iz, wz);
  taps(1, y, iy, wy);
  taps(2, x, ix, wx);
  X_store(at(1, n, c, z, y, x), X_load(at(0, n, c, iz[0], iy[0], ix[0])));
#elif defined(OP_forward)
  int64_t iz[4], iy[4], ix[4];
  W_T wz[4], wy[4], wx[4];
  int tz = taps(0, z, iz, wz), ty = taps(1, y, iy, wy), tx = taps(2, x, ix, wx);
  X_T sum = X_T(0);
  for (int a = 0; a < tz; ++a)
    for (int b = 0; b < ty; ++b) {
      X_T row = X_T(0);
      for (int k = 0; k < tx; ++k) row += wx[k] * X_load(at(0, n, c, iz[a], iy[b], ix[k]));
      sum += wz[a] * wy[b] * row;
    }
  X_store(at(1, n, c, z, y, x), sum);
#else
  int64_t z0, z1, y0, y1, x0, x1;
  candidates(0, z, z0, z1);
  candidates(1, y, y0, y1);
  candidates(2, x, x0, x1);
  X_T sum = X_T(0);
  for (int64_t oz = z0; oz <= z1; ++oz) {
    W_T wz;
    if (!reaches(0, oz, z, wz)) continue;
    for (int64_t oy = y0; oy <= y1; ++oy) {
      W_T wy;
      if (!reaches(1, oy, y, wy)) continue;
      X_T row = X_T(0);
      for (int64_t ox = x0; ox <= x1; ++ox) {
        W_T wx;
        if (reaches(2, ox, x, wx)) row += wx * X_load(at(1, n, c, oz, oy, ox));
      }
      sum += wz * wy * row;
    }
  }
  X_store(at(0, n, c, z, y, x), sum);
#endif
}
