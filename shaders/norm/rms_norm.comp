// RMS norm over rows of a contiguous [rows, length] input, one workgroup per
// row; math in float (double for float64), rstd stored in that type as
// PyTorch's composite rms_norm returns it.
//   forward:  rstd = 1 / sqrt(mean(x^2) + eps); y = x * rstd * w
//   backward: with xhat = x * rstd and g = dy * w,
//             dx = rstd * (g - xhat * mean(g * xhat))
#ifdef X_DT_F64
#define WG_T double
#endif
#include "common/workgroup.glsl"

layout(push_constant) uniform Args {
  uint64_t x;
  uint64_t dy;      // backward: output gradient
  uint64_t weight;  // 0 if none
  uint64_t target;  // forward: y; backward: dx
  uint64_t rstd;    // [rows] of WG_T
  uint64_t rows;
  uint64_t row_length;
  uint64_t eps;     // raw bits of WG_T
} args;

#ifdef X_DT_F64
#define STAT_REF RefF64
#define STAT_BYTES 8
WG_T eps() { return uint64BitsToDouble(args.eps); }
#else
#define STAT_REF RefF32
#define STAT_BYTES 4
WG_T eps() { return uintBitsToFloat(uint(args.eps)); }
#endif

WG_T x_at(uint64_t first, uint64_t k) { return WG_T(X_load(args.x + (first + k) * X_BYTES)); }
WG_T w_at(uint64_t k) { return args.weight != 0 ? WG_T(X_load(args.weight + k * X_BYTES)) : WG_T(1); }

void main() {
  uint64_t row = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (row >= args.rows) return;
  uint tid = gl_LocalInvocationID.x;
  uint64_t n = args.row_length;
  uint64_t first = row * n;
#ifdef OP_forward
  WG_T squares = WG_T(0);
  for (uint64_t k = tid; k < n; k += kWorkgroupSize) {
    WG_T v = x_at(first, k);
    squares += v * v;
  }
  WG_T rstd = inversesqrt(workgroup_sum(squares) / WG_T(n) + eps());
  for (uint64_t k = tid; k < n; k += kWorkgroupSize) {
    X_store(args.target + (first + k) * X_BYTES, X_T(x_at(first, k) * rstd * w_at(k)));
  }
  if (tid == 0) STAT_REF(args.rstd + row * STAT_BYTES).v = rstd;
#else
  WG_T rstd = STAT_REF(args.rstd + row * STAT_BYTES).v;
  WG_T gx_sum = WG_T(0);
  for (uint64_t k = tid; k < n; k += kWorkgroupSize) {
    gx_sum += WG_T(X_load(args.dy + (first + k) * X_BYTES)) * w_at(k) * x_at(first, k) * rstd;
  }
  WG_T gx_mean = workgroup_sum(gx_sum) / WG_T(n);
  for (uint64_t k = tid; k < n; k += kWorkgroupSize) {
    WG_T g = WG_T(X_load(args.dy + (first + k) * X_BYTES)) * w_at(k);
    X_store(args.target + (first + k) * X_BYTES, X_T(rstd * (g - x_at(first, k) * rstd * gx_mean)));
  }
#endif
}
