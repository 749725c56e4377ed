// grid_sampler_2d / grid_sampler_3d and their backwards (F.grid_sample),
// one invocation per grid point, looping over the channels, as the CPU's
// reference kernels (aten/src/ATen/native/GridSampler.h's formulas). 2-D
// sampling is 3-D sampling of a depth-1 input at z = 0: the z weights are
// then exactly 1 and 0, and the z = 1 taps lie outside.
//
// A grid coordinate g in [-1, 1] maps to the source position
//   align_corners: (g + 1) / 2 * (size - 1), else ((g + 1) * size - 1) / 2,
// then padding "border" clips it to [0, size - 1] and "reflection"
// reflects it about the edges (pixel centers with align_corners, else the
// pixels' outer edges) before clipping; "zeros" leaves it, and taps outside
// read 0. Bilinear: the 2 or 3 dimensions' linear weights; nearest: the
// position rounded half to even; bicubic (2-D only): 4 x 4 taps with the
// cubic convolution's weights (A = -0.75) at positions unnormalized without
// padding, each tap's position then padded on its own.
//
// The backward adds each output gradient times its tap weights into
// grad_input with atomics (common/atomic.glsl; float32 or float64 only, the
// host upcasts 16-bit types) and writes grad_grid: the derivative of the
// output with respect to each coordinate, through the weights and the
// unnormalize/padding maps (zero for nearest; bicubic ignores the padding's
// derivative, as the CPU does).
layout(push_constant) uniform Args {
  uint64_t params;
} args;

// int64 words (csrc/aten/ops/upsample/grid_sample.cpp): 0 input, 1 grid,
// 2 output (forward) or grad_output, 3 grad_input (0: not wanted), 4
// grad_grid addresses; 5 N, 6 C; 7-9 input D, H, W; 10-12 output D, H, W;
// strides (elements): 13-17 input n, c, d, h, w; 18-22 grid n, d, h, w,
// coordinate; 23-27 output or grad_output n, c, d, h, w; 28-32 grad_input
// n, c, d, h, w; 33-37 grad_grid n, d, h, w, coordinate; 38 interpolation
// (0 bilinear, 1 nearest, 2 bicubic); 39 padding (0 zeros, 1 border, 2
// reflection); 40 align_corners; 41 spatial dimensions (2 or 3).
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

Params p;

#define W_T X_T
#include "upsample/cubic.glsl"

#ifdef OP_backward
X_T combine(X_T a, X_T b) { return a + b; }
#include "common/atomic.glsl"
#endif

const int BILINEAR = 0, NEAREST = 1, BICUBIC = 2;
const int BORDER = 1, REFLECTION = 2;

// Input extent of dimension d (0: z, 1: y, 2: x).
int64_t size_of(int d) { return p.v[7 + d]; }

uint64_t input_at(int64_t n, int64_t c, int64_t z, int64_t y, int64_t x) {
  return uint64_t(p.v[0]) + uint64_t(n * p.v[13] + c * p.v[14] + z * p.v[15] + y * p.v[16] + x * p.v[17]) * X_BYTES;
}

bool inside(int64_t z, int64_t y, int64_t x) {
  return z >= 0 && z < size_of(0) && y >= 0 && y < size_of(1) && x >= 0 && x < size_of(2);
}

// Grid coordinate g as a position along an extent of `size`; `grad` the
// derivative.
X_T unnormalize(X_T g, int64_t size, out X_T grad) {
  if (p.v[40] != 0) {
    grad = X_T(size - 1) / X_T(2);
    return (g + X_T(1)) / X_T(2) * X_T(size - 1);
  }
  grad = X_T(size) / X_T(2);
  return ((g + X_T(1)) * X_T(size) - X_T(1)) / X_T(2);
}

X_T clip(X_T x, int64_t size, out X_T grad) {
  grad = X_T(0);
  if (x <= X_T(0)) return X_T(0);
  if (x >= X_T(size - 1)) return X_T(size - 1);
  grad = X_T(1);
  return x;
}

// x reflected into [twice_low / 2, twice_high / 2].
X_T reflect(X_T x, int64_t twice_low, int64_t twice_high, out X_T grad) {
  grad = X_T(0);
  if (twice_low == twice_high) return X_T(0);
  X_T low = X_T(twice_low) / X_T(2), span = X_T(twice_high - twice_low) / X_T(2);
  x -= low;
  X_T sign = X_T(1);
  if (x < X_T(0)) {
    sign = X_T(-1);
    x = -x;
  }
  X_T extra = mod(x, span);
  bool even = (int64_t(floor(x / span)) & 1) == 0;
  grad = even ? sign : -sign;
  return even ? extra + low : span - extra + low;
}

// The padding mode's map of a position along an extent of `size`; `grad`
// multiplied by its derivative.
X_T pad(X_T x, int64_t size, inout X_T grad) {
  X_T g_clip, g_reflect = X_T(1);
  if (p.v[39] == REFLECTION) {
    x = p.v[40] != 0 ? reflect(x, 0, 2 * (size - 1), g_reflect) : reflect(x, -1, 2 * size - 1, g_reflect);
  }
  if (p.v[39] == BORDER || p.v[39] == REFLECTION) {
    x = clip(x, size, g_clip);
    grad *= g_reflect * g_clip;
  }
  return x;
}

// Bicubic: tap (x, y) (integral positions before padding) of channel c.
int64_t tap_position(X_T v, int64_t size) {
  X_T unused = X_T(1);
  return int64_t(pad(v, size, unused));
}

void main() {
  p = Params(args.params);
  int64_t C = p.v[6], Do = p.v[10], Ho = p.v[11], Wo = p.v[12];
  int64_t i = int64_t(global_index());
  if (i >= p.v[5] * Do * Ho * Wo) return;
  int64_t ox = i % Wo, oy = (i / Wo) % Ho, oz = (i / (Wo * Ho)) % Do, n = i / (Wo * Ho * Do);
  uint64_t g = uint64_t(p.v[1]) + uint64_t(n * p.v[18] + oz * p.v[19] + oy * p.v[20] + ox * p.v[21]) * X_BYTES;
  uint64_t g_step = uint64_t(p.v[22]) * X_BYTES;
  bool volume = p.v[41] == 3;
  // Coordinates as (z, y, x); the grid stores x first.
  X_T coord[3] = {volume ? X_load(g + 2u * g_step) : X_T(0), X_load(g + g_step), X_load(g)};
  int mode = int(p.v[38]);
  uint64_t out_at = uint64_t(p.v[2]) + uint64_t(n * p.v[23] + oz * p.v[25] + oy * p.v[26] + ox * p.v[27]) * X_BYTES;
  uint64_t out_step = uint64_t(p.v[24]) * X_BYTES;
#ifdef OP_backward
  uint64_t grad_in = uint64_t(p.v[3]);
  X_T grads[3] = {X_T(0), X_T(0), X_T(0)};  // d loss / d source position, per dimension
#endif
  X_T mult[3];  // d source position / d grid coordinate
  X_T pos[3];

  if (mode == BICUBIC) {
    X_T t[3], w[3][4];
    for (int d = 1; d < 3; ++d) {
      pos[d] = unnormalize(coord[d], size_of(d), mult[d]);
      X_T first = floor(pos[d]);
      t[d] = pos[d] - first;
      pos[d] = first;
      cubic_weights(t[d], w[d]);
    }
#ifdef OP_backward
    // d weight / d t's factor as the CPU forms it (its sign folded in below).
    X_T dw[3][4];
    for (int d = 1; d < 3; ++d) {
      X_T s = t[d];
      X_T a = -1.0 - s, b = -s, e = 1.0 - s, f = 2.0 - s;
      dw[d][0] = (2.25 * a + 7.5) * a + 6.0;
      dw[d][1] = (-3.75 * b - 4.5) * b;
      dw[d][2] = (3.75 * e - 4.5) * e;
      dw[d][3] = (-2.25 * f + 7.5) * f - 6.0;
    }
#endif
    int64_t xs[4], ys[4];
    for (int k = 0; k < 4; ++k) {
      xs[k] = tap_position(pos[2] - X_T(1) + X_T(k), size_of(2));
      ys[k] = tap_position(pos[1] - X_T(1) + X_T(k), size_of(1));
    }
    for (int64_t c = 0; c < C; ++c) {
#ifdef OP_forward
      X_T rows[4];
      for (int k = 0; k < 4; ++k) {
        rows[k] = X_T(0);
        for (int j = 0; j < 4; ++j) {
          X_T v = inside(0, ys[k], xs[j]) ? X_load(input_at(n, c, 0, ys[k], xs[j])) : X_T(0);
          rows[k] += v * w[2][j];
        }
      }
      X_store(out_at + uint64_t(c) * out_step, rows[0] * w[1][0] + rows[1] * w[1][1] + rows[2] * w[1][2] + rows[3] * w[1][3]);
#else
      X_T go = X_load(out_at + uint64_t(c) * out_step);
      for (int j = 0; j < 4; ++j) {
        for (int k = 0; k < 4; ++k) {
          if (!inside(0, ys[k], xs[j])) continue;
          if (grad_in != 0)
            atomic_combine(grad_in + uint64_t(n * p.v[28] + c * p.v[29] + ys[k] * p.v[31] + xs[j] * p.v[32]) * X_BYTES,
                           go * w[2][j] * w[1][k]);
          X_T v = X_load(input_at(n, c, 0, ys[k], xs[j]));
          grads[2] -= v * dw[2][j] * w[1][k] * go;
          grads[1] -= v * dw[1][k] * w[2][j] * go;
        }
      }
#endif
    }
  } else {
    for (int d = 0; d < 3; ++d) {
      pos[d] = unnormalize(coord[d], size_of(d), mult[d]);
      pos[d] = pad(pos[d], size_of(d), mult[d]);
    }
    if (mode == NEAREST) {
      int64_t z = int64_t(roundEven(pos[0])), y = int64_t(roundEven(pos[1])), x = int64_t(roundEven(pos[2]));
      bool hit = inside(z, y, x);
      for (int64_t c = 0; c < C; ++c) {
#ifdef OP_forward
        X_store(out_at + uint64_t(c) * out_step, hit ? X_load(input_at(n, c, z, y, x)) : X_T(0));
#else
        if (hit && grad_in != 0)
          atomic_combine(grad_in + uint64_t(n * p.v[28] + c * p.v[29] + z * p.v[30] + y * p.v[31] + x * p.v[32]) * X_BYTES,
                         X_load(out_at + uint64_t(c) * out_step));
#endif
      }
    } else {
      // Corner (dz, dy, dx) weighs w[0][dz] * w[1][dy] * w[2][dx].
      int64_t first[3];
      X_T w[3][2];
      for (int d = 0; d < 3; ++d) {
        first[d] = int64_t(floor(pos[d]));
        w[d][0] = X_T(first[d] + 1) - pos[d];
        w[d][1] = pos[d] - X_T(first[d]);
      }
      for (int64_t c = 0; c < C; ++c) {
#ifdef OP_forward
        X_T sum = X_T(0);
#else
        X_T go = X_load(out_at + uint64_t(c) * out_step);
#endif
        for (int dz = 0; dz < 2; ++dz) {
          for (int dy = 0; dy < 2; ++dy) {
            for (int dx = 0; dx < 2; ++dx) {
              int64_t z = first[0] + dz, y = first[1] + dy, x = first[2] + dx;
              if (!inside(z, y, x)) continue;
              X_T v = X_load(input_at(n, c, z, y, x));
#ifdef OP_forward
              sum += v * (w[2][dx] * w[1][dy] * w[0][dz]);
#else
              if (grad_in != 0)
                atomic_combine(grad_in + uint64_t(n * p.v[28] + c * p.v[29] + z * p.v[30] + y * p.v[31] + x * p.v[32]) * X_BYTES,
                               w[2][dx] * w[1][dy] * w[0][dz] * go);
              // The weight's derivative along a dimension: -1 or +1 times
              // the other dimensions' weights.
              X_T gx = v * w[1][dy] * w[0][dz] * go, gy = v * w[2][dx] * w[0][dz] * go, gz = v * w[2][dx] * w[1][dy] * go;
              grads[2] += dx == 0 ? -gx : gx;
              grads[1] += dy == 0 ? -gy : gy;
              grads[0] += dz == 0 ? -gz : gz;
#endif
            }
          }
        }
#ifdef OP_forward
        X_store(out_at + uint64_t(c) * out_step, sum);
#endif
      }
    }
  }
#ifdef OP_backward
  uint64_t gg = uint64_t(p.v[4]) + uint64_t(n * p.v[33] + oz * p.v[34] + oy * p.v[35] + ox * p.v[36]) * X_BYTES;
  uint64_t gg_step = uint64_t(p.v[37]) * X_BYTES;
  bool moves = mode != NEAREST;
  X_store(gg, moves ? mult[2] * grads[2] : X_T(0));
  X_store(gg + gg_step, moves ? mult[1] * grads[1] : X_T(0));
  if (volume) X_store(gg + 2u * gg_step, moves ? mult[0] * grads[0] : X_T(0));
#endif
}
