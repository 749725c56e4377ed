// Group norm of an input viewed as [N, C, HW]: the C channels form G groups
// of C / G, and each (sample n, group g) is one row of m = C / G * HW
// elements, one workgroup per row; math in float (double for float64). The
// per-channel weight and bias and the per-row mean and rstd have dtype P: X's,
// or float for 16-bit inputs with float parameters.
//   forward:         mean and var of the row in one pass (Welford),
//                    rstd = 1 / sqrt(var + eps); y = (x - mean) * rstd * w[c] + b[c]
//   backward:        with xhat = (x - mean) * rstd and g = dy * w[c],
//                    dx = rstd * (g - sum(g) / m - xhat * sum(g * xhat) / m)
//   param_backward:  one workgroup per channel c, over its N * HW elements:
//                    dw[c] = sum(dy * xhat), db[c] = sum(dy)
#ifdef X_DT_F64
#define WG_T double
#endif
#include "common/workgroup.glsl"
#include "norm/stats.glsl"

layout(push_constant) uniform Args {
  uint64_t shape;  // Shape
  uint64_t x, dy, weight, bias;     // weight, bias: 0 if none
  uint64_t target;                  // y or dx
  uint64_t mean, rstd;              // [N, G]: forward writes them, backward reads
  uint64_t grad_weight, grad_bias;  // 0: not wanted
  uint64_t eps;                     // raw bits of WG_T
} args;

WG_T p_at(uint64_t base, uint64_t i) { return WG_T(P_load(base + i * P_BYTES)); }
void p_set(uint64_t base, uint64_t i, WG_T v) { P_store(base + i * P_BYTES, P_T(v)); }
WG_T x_at(uint64_t base, int64_t offset) { return WG_T(X_load(base + uint64_t(offset) * X_BYTES)); }

void main() {
  Shape s = Shape(args.shape);
  uint64_t id = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint tid = gl_LocalInvocationID.x;
  uint64_t hw = uint64_t(s.hw), groups = uint64_t(s.groups);
  uint64_t group_channels = uint64_t(s.c) / groups;
#if defined(OP_param_backward)
  uint64_t c = id;
  if (c >= uint64_t(s.c)) return;
  uint64_t g = c / group_channels;
  int64_t first = int64_t(c) * s.stride_c;
  WG_T dw = WG_T(0), db = WG_T(0);
  for (uint64_t j = tid; j < uint64_t(s.n) * hw; j += kWorkgroupSize) {
    uint64_t n = outer_index(j, hw);
    int64_t at = first + int64_t(n) * s.stride_n + int64_t(j - n * hw) * s.stride_hw;
    WG_T grad = x_at(args.dy, at);
    uint64_t row = n * groups + g;
    dw += grad * (x_at(args.x, at) - p_at(args.mean, row)) * p_at(args.rstd, row);
    db += grad;
  }
  dw = workgroup_sum(dw);
  db = workgroup_sum(db);
  if (tid == 0) {
    if (args.grad_weight != 0) p_set(args.grad_weight, c, dw);
    if (args.grad_bias != 0) p_set(args.grad_bias, c, db);
  }
#else
  uint64_t row = id;
  if (row >= uint64_t(s.n) * groups) return;
  uint64_t n = row / groups, g = row - n * groups;
  uint64_t m = group_channels * hw;
  uint64_t first_channel = g * group_channels;
  int64_t first = int64_t(n) * s.stride_n + int64_t(first_channel) * s.stride_c;
#if defined(OP_forward)
  Welford acc = Welford(WG_T(0), WG_T(0), WG_T(0));
  for (uint64_t j = tid; j < m; j += kWorkgroupSize) {
    welford_add(acc, x_at(args.x, first + block_offset(j, s, s.stride_c)));
  }
  acc = workgroup_welford(acc);
  WG_T mean = acc.mean;
  WG_T rstd = WG_T(1) / sqrt(acc.m2 / WG_T(m) + from_bits(args.eps));
  if (tid == 0) {
    p_set(args.mean, row, mean);
    p_set(args.rstd, row, rstd);
  }
  for (uint64_t j = tid; j < m; j += kWorkgroupSize) {
    uint64_t c = first_channel + outer_index(j, hw);
    WG_T a = rstd * (args.weight != 0 ? p_at(args.weight, c) : WG_T(1));
    WG_T b = (args.bias != 0 ? p_at(args.bias, c) : WG_T(0)) - mean * a;
    int64_t at = first + block_offset(j, s, s.stride_c);
    X_store(args.target + uint64_t(at) * X_BYTES, X_T(x_at(args.x, at) * a + b));
  }
#else
  WG_T mean = p_at(args.mean, row), rstd = p_at(args.rstd, row);
  WG_T g_sum = WG_T(0), gx_sum = WG_T(0);
  for (uint64_t j = tid; j < m; j += kWorkgroupSize) {
    uint64_t c = first_channel + outer_index(j, hw);
    int64_t at = first + block_offset(j, s, s.stride_c);
    WG_T grad = x_at(args.dy, at) * (args.weight != 0 ? p_at(args.weight, c) : WG_T(1));
    g_sum += grad;
    gx_sum += grad * (x_at(args.x, at) - mean) * rstd;
  }
  WG_T g_mean = workgroup_sum(g_sum) / WG_T(m);
  WG_T gx_mean = workgroup_sum(gx_sum) / WG_T(m);
  for (uint64_t j = tid; j < m; j += kWorkgroupSize) {
    uint64_t c = first_channel + outer_index(j, hw);
    int64_t at = first + block_offset(j, s, s.stride_c);
    WG_T grad = x_at(args.dy, at) * (args.weight != 0 ? p_at(args.weight, c) : WG_T(1));
    WG_T xhat = (x_at(args.x, at) - mean) * rstd;
    X_store(args.target + uint64_t(at) * X_BYTES, X_T(rstd * (grad - g_mean - xhat * gx_mean)));
  }
#endif
#endif
}
