// _upsample_bilinear2d_aa and _upsample_bicubic2d_aa (F.interpolate with
// antialias=True) and their backwards, one invocation per element written,
// as the CPU's separable kernels (PIL's): output position o of a dimension
// with scale s (input / output size) reads the inputs within `support` of
// its centre,
//   centre = s (o + 1/2), support = r max(s, 1) (r = 1 bilinear, 2 bicubic)
//   inputs [max(trunc(centre - support + 1/2), 0), min(trunc(centre +
//   support + 1/2), size)), weights w((i - centre + 1/2) / max(s, 1))
//   normalized to sum 1
// with w the triangle filter, or Keys' cubic with a = -0.5 (not the -0.75 of
// plain bicubic). So downsampling averages over every input it covers.
//   forward:  out[oy, ox] = sum wy(oy, iy) wx(ox, ix) in[iy, ix]
//   backward: grad_in[iy, ix] = sum over the outputs whose windows hold it
//             (a range found from the centres, then checked) of the same
//             weights times grad_out: a gather, no atomics
#include "common/volume.glsl"

// Words from 20 (csrc/aten/ops/upsample/upsample.cpp): 20 radius (1
// bilinear, 2 bicubic); 21-22 scale of H and W as float bits, 23-24 as
// double bits (float64).

X_T scale(int d) {
#ifdef X_DT_F64
  return int64BitsToDouble(p.v[23 + d]);
#else
  return uintBitsToFloat(uint(p.v[21 + d]));
#endif
}

X_T kernel_weight(X_T x) {
  x = abs(x);
  if (p.v[20] == 1) return x < X_T(1) ? X_T(1) - x : X_T(0);
  const X_T a = X_T(-0.5);
  if (x < X_T(1)) return ((a + X_T(2)) * x - (a + X_T(3))) * x * x + X_T(1);
  if (x < X_T(2)) return (((x - X_T(5)) * x + X_T(8)) * x - X_T(4)) * a;
  return X_T(0);
}

// Output position o of dimension d (0: H, 1: W): its first input, the end
// of its inputs, its centre and the factor applied inside the filter; the
// sum of its weights is returned.
X_T window(int d, int64_t o, out int64_t first, out int64_t end, out X_T centre, out X_T inv) {
  int64_t size = p.v[5 + d];
  X_T s = scale(d);
  X_T support = X_T(p.v[20]) * max(s, X_T(1));
  inv = s >= X_T(1) ? X_T(1) / s : X_T(1);
  centre = s * (X_T(o) + X_T(0.5));
  first = max(int64_t(centre - support + X_T(0.5)), int64_t(0));
  end = min(int64_t(centre + support + X_T(0.5)), size);
  X_T total = X_T(0);
  for (int64_t i = first; i < end; ++i) total += kernel_weight((X_T(i) - centre + X_T(0.5)) * inv);
  return total;
}

X_T weight(int64_t i, X_T centre, X_T inv, X_T total) {
  X_T w = kernel_weight((X_T(i) - centre + X_T(0.5)) * inv);
  return total != X_T(0) ? w / total : w;
}

#ifdef OP_backward
// Every output of dimension d whose window can hold input i lies in [lo,
// hi]: the centres within support + 1/2 of i, widened by one for rounding.
void candidates(int d, int64_t i, out int64_t lo, out int64_t hi) {
  int64_t outs = p.v[8 + d];
  X_T s = scale(d), reach = X_T(p.v[20]) * max(s, X_T(1)) + X_T(1);
  lo = int64_t(clamp(floor((X_T(i) - reach) / s - X_T(0.5)) - X_T(1), X_T(0), X_T(outs)));
  hi = int64_t(clamp(ceil((X_T(i) + reach) / s - X_T(0.5)) + X_T(1), X_T(0), X_T(outs - 1)));
}
#endif

void main() {
  int64_t n, c, z, y, x;
  if (!locate(n, c, z, y, x)) return;
  X_T sum = X_T(0);
#ifdef OP_forward
  int64_t y0, y1, x0, x1;
  X_T cy, cx, iy, ix;
  X_T ty = window(0, y, y0, y1, cy, iy), tx = window(1, x, x0, x1, cx, ix);
  for (int64_t i = y0; i < y1; ++i) {
    X_T row = X_T(0);
    for (int64_t j = x0; j < x1; ++j) row += weight(j, cx, ix, tx) * X_load(at(0, n, c, z, i, j));
    sum += weight(i, cy, iy, ty) * row;
  }
  X_store(at(1, n, c, z, y, x), sum);
#else
  int64_t oy0, oy1, ox0, ox1;
  candidates(0, y, oy0, oy1);
  candidates(1, x, ox0, ox1);
  for (int64_t oy = oy0; oy <= oy1; ++oy) {
    int64_t a, b;
    X_T cy, iy;
    X_T ty = window(0, oy, a, b, cy, iy);
    if (y < a || y >= b) continue;
    X_T wy = weight(y, cy, iy, ty), row = X_T(0);
    for (int64_t ox = ox0; ox <= ox1; ++ox) {
      int64_t e, f;
      X_T cx, ix;
      X_T tx = window(1, ox, e, f, cx, ix);
      if (x < e || x >= f) continue;
      row += weight(x, cx, ix, tx) * X_load(at(1, n, c, z, oy, ox));
    }
    sum += wy * row;
  }
  X_store(at(0, n, c, z, y, x), sum);
#endif
}
