// Layer norm over rows of a contiguous [rows, length] input, one workgroup per
// row; statistics in float (double for float64), stored in the input dtype as
// PyTorch's CPU kernel does.
//   forward:  mean, rstd = 1 / sqrt(var + eps) (two passes: stable);
//             y = (x - mean) * rstd * w + b
//   backward: with xhat = (x - mean) * rstd and g = dy * w,
//             dx = rstd * (g - mean(g) - xhat * mean(g * xhat))
#ifdef X_DT_F64
#define WG_T double
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
} args;

ACC_T x_at(uint64_t first, uint64_t k) { return ACC_T(X_load(args.x + (first + k) * X_BYTES)); }
ACC_T w_at(uint64_t k) { return args.weight != 0 ? ACC_T(X_load(args.weight + k * X_BYTES)) : ACC_T(1); }

void main() {
  uint64_t row = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (row >= args.rows) return;
  uint tid = gl_LocalInvocationID.x;
  uint64_t n = args.row_length;
  uint64_t first = row * n;
#ifdef OP_forward
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
