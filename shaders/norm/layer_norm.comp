// Layer norm over rows of a contiguous [rows, length] input, one workgroup per
// row; statistics in float (double for float64), stored in the input dtype as
// PyTorch's CPU kernel does.
//   forward:  mean, rstd = 1 / sqrt(var + eps) (two passes: stable);
//             y = (x - mean) * rstd * w + b
//   backward: with xhat = (x - mean) * rstd and g = dy * w,
//             dx = rstd * (g - mean(g) - xhat * mean(g * xhat))
// The forward keeps a row that fits (CHUNKS * VEC elements per invocation) in
// registers, for bandwidth: x is read from memory once instead of three
// times, in VEC-element 16-byte accesses where args.vector says the rows,
// weight and bias are aligned (several in flight per invocation).
#ifdef X_DT_F64
#define WG_T double
#define CHUNKS (16 / VEC)
#else
#define CHUNKS (32 / VEC)
#endif
#include "common/workgroup.glsl"
#define ACC_T WG_T

layout(push_constant) uniform Args {
  uint64_t x;
  uint64_t dy;      // backward: output gradient
  uint64_t weight;  // 0 if none
  uint64_t bias;    // 0 if none
  uint64_t target;  // forward: y; backward: dx
  uint64_t mean;    // [rows]
  uint64_t rstd;    // [rows]
  uint64_t rows;
  uint64_t row_length;
  double eps;
  uint vector;  // forward: 1 for VEC-element vector accesses
} args;

// The register tile: invocation t holds element (t + c * n) * VEC + j in slot
// [c][j] (vector steps), or t + (c * VEC + j) * n (coalesced single elements).
ACC_T tile[CHUNKS][VEC];

bool vectorized() { return args.vector != 0; }
uint slot_element(uint c, uint j) {
  uint t = gl_LocalInvocationID.x;
  return vectorized() ? (t + c * kWorkgroupSize) * VEC + j : t + (c * VEC + j) * kWorkgroupSize;
}

// Elements [0, n) of the row at `base` into `v`, `pad` where the row has none.
void load_tile(uint64_t base, uint n, ACC_T pad, out ACC_T v[CHUNKS][VEC]) {
  for (uint c = 0; c < CHUNKS; ++c) {
    if (vectorized()) {
      uint e = slot_element(c, 0);
      if (e < n) {
        X_loadv(base + uint64_t(e) * X_BYTES, v[c]);
      } else {
        for (uint j = 0; j < VEC; ++j) v[c][j] = pad;
      }
    } else {
      for (uint j = 0; j < VEC; ++j) {
        uint e = slot_element(c, j);
        v[c][j] = e < n ? X_load(base + uint64_t(e) * X_BYTES) : pad;
      }
    }
  }
}

void store_tile(uint64_t base, uint n) {
  for (uint c = 0; c < CHUNKS; ++c) {
    if (vectorized()) {
      uint e = slot_element(c, 0);
      if (e < n) X_storev(base + uint64_t(e) * X_BYTES, tile[c]);
    } else {
      for (uint j = 0; j < VEC; ++j) {
        uint e = slot_element(c, j);
        if (e < n) X_store(base + uint64_t(e) * X_BYTES, tile[c][j]);
      }
    }
  }
}

// The forward of a row held in registers.
void forward_in_registers(uint64_t row, uint n) {
  // Shifted by the row's first element: sums of x - x0 keep the mean's low
  // bits where the mean is large against the spread (x - x0 is exact there).
  uint64_t x = args.x + row * n * X_BYTES;
  ACC_T x0 = X_load(x);
  load_tile(x, n, x0, tile);
  ACC_T sum = ACC_T(0);
  for (uint c = 0; c < CHUNKS; ++c)
    for (uint j = 0; j < VEC; ++j) sum += tile[c][j] -= x0;
  ACC_T shifted_mean = workgroup_sum(sum) / ACC_T(n);
  ACC_T squares = ACC_T(0);
  for (uint c = 0; c < CHUNKS; ++c) {
    for (uint j = 0; j < VEC; ++j) {
      ACC_T d = slot_element(c, j) < n ? tile[c][j] - shifted_mean : ACC_T(0);
      squares += d * d;
    }
  }
  ACC_T mean = x0 + shifted_mean;
  ACC_T rstd = inversesqrt(workgroup_sum(squares) / ACC_T(n) + ACC_T(args.eps));
  for (uint c = 0; c < CHUNKS; ++c)
    for (uint j = 0; j < VEC; ++j) tile[c][j] = (tile[c][j] - shifted_mean) * rstd;
  if (args.weight != 0) {
    ACC_T w[CHUNKS][VEC];
    load_tile(args.weight, n, ACC_T(0), w);
    for (uint c = 0; c < CHUNKS; ++c)
      for (uint j = 0; j < VEC; ++j) tile[c][j] *= w[c][j];
  }
  if (args.bias != 0) {
    ACC_T b[CHUNKS][VEC];
    load_tile(args.bias, n, ACC_T(0), b);
    for (uint c = 0; c < CHUNKS; ++c)
      for (uint j = 0; j < VEC; ++j) tile[c][j] += b[c][j];
  }
  store_tile(args.target + row * n * X_BYTES, n);
  if (gl_LocalInvocationID.x == 0) {
    X_store(args.mean + row * X_BYTES, X_T(mean));
    X_store(args.rstd + row * X_BYTES, X_T(rstd));
  }
}

ACC_T x_at(uint64_t first, uint64_t k) { return ACC_T(X_load(args.x + (first + k) * X_BYTES)); }
ACC_T w_at(uint64_t k) { return args.weight != 0 ? ACC_T(X_load(args.weight + k * X_BYTES)) : ACC_T(1); }

void main() {
  uint64_t row = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (row >= args.rows) return;
  uint tid = gl_LocalInvocationID.x;
  uint64_t n = args.row_length;
  uint64_t first = row * n;
#ifdef OP_forward
  if (n <= kWorkgroupSize * CHUNKS * VEC) {
    forward_in_registers(row, uint(n));
    return;
  }
  ACC_T sum = ACC_T(0);
  for (uint64_t k = tid; k < n; k += kWorkgroupSize) sum += x_at(first, k);
  ACC_T mean = workgroup_sum(sum) / ACC_T(n);
  ACC_T squares = ACC_T(0);
  for (uint64_t k = tid; k < n; k += kWorkgroupSize) {
    ACC_T d = x_at(first, k) - mean;
    squares += d * d;
  }
  ACC_T rstd = inversesqrt(workgroup_sum(squares) / ACC_T(n) + ACC_T(args.eps));
  for (uint64_t k = tid; k < n; k += kWorkgroupSize) {
    ACC_T y = (x_at(first, k) - mean) * rstd * w_at(k);
    if (args.bias != 0) y += ACC_T(X_load(args.bias + k * X_BYTES));
    X_store(args.target + (first + k) * X_BYTES, X_T(y));
  }
  if (tid == 0) {
    X_store(args.mean + row * X_BYTES, X_T(mean));
    X_store(args.rstd + row * X_BYTES, X_T(rstd));
  }
#else
  ACC_T mean = ACC_T(X_load(args.mean + row * X_BYTES));
  ACC_T rstd = ACC_T(X_load(args.rstd + row * X_BYTES));
  ACC_T g_sum = ACC_T(0), gx_sum = ACC_T(0);
  for (uint64_t k = tid; k < n; k += kWorkgroupSize) {
    ACC_T g = ACC_T(X_load(args.dy + (first + k) * X_BYTES)) * w_at(k);
    g_sum += g;
    gx_sum += g * (x_at(first, k) - mean) * rstd;
  }
  ACC_T g_mean = workgroup_sum(g_sum) / ACC_T(n);
  ACC_T gx_mean = workgroup_sum(gx_sum) / ACC_T(n);
  for (uint64_t k = tid; k < n; k += kWorkgroupSize) {
    ACC_T g = ACC_T(X_load(args.dy + (first + k) * X_BYTES)) * w_at(k);
    ACC_T xhat = (x_at(first, k) - mean) * rstd;
    X_store(args.target + (first + k) * X_BYTES, X_T(rstd * (g - g_mean - xhat * gx_mean)));
  }
#endif
}
