// Batch norm over the channels c of an input viewed as [N, C, HW], one
// workgroup per channel; math in float (double for float64). The per-channel
// tensors (weight, bias, running and saved statistics, their gradients) have
// dtype P: X's, or float for 16-bit inputs with float parameters.
//   forward:       mean and biased var of the channel in one pass (Welford),
//                  invstd = 1 / sqrt(var + eps) (0 when both are 0, as ATen);
//                  running stats += momentum * (mean or unbiased var - running)
//   forward_eval:  mean and var are the running statistics
//   update_stats:  forward's statistics and running update alone, with the
//                  biased var in place of invstd (batch_norm_update_stats)
//   both:          y = x * a + (b - mean * a), a = invstd * w
//   backward:      with s = sum(dy), d = sum((x - mean) dy) over the channel
//                  (n elements): dw = d * invstd, db = s and
//                  dx = (dy - s / n - (x - mean) * d * invstd^2 / n) * invstd * w
//   backward_eval: the statistics are constants: dx = dy * invstd * w
#ifdef X_DT_F64
#define WG_T double
#endif
#include "common/workgroup.glsl"
#include "norm/stats.glsl"

layout(push_constant) uniform Args {
  uint64_t shape;  // Shape
  uint64_t x, dy, weight, bias;     // weight, bias: 0 if none
  uint64_t running_mean, running_var;
  uint64_t target;                  // y or dx; 0: not wanted
  uint64_t save_mean, save_invstd;  // forward: written; backward: read
  uint64_t grad_weight, grad_bias;  // 0: not wanted
  uint64_t eps, momentum;           // raw bits of WG_T
} args;

WG_T p_at(uint64_t base, uint64_t c) { return WG_T(P_load(base + c * P_BYTES)); }
void p_set(uint64_t base, uint64_t c, WG_T v) { P_store(base + c * P_BYTES, P_T(v)); }

// v rounded to P: PyTorch's CPU kernel keeps the mean, the sum of squared
// deviations and invstd in the parameters' dtype.
WG_T as_p(WG_T v) {
#if defined(P_DT_BF16)
  return uintBitsToFloat(f32_to_bf16_bits(v) << 16);
#elif defined(P_DT_F16)
  return unpackHalf2x16(f32_to_f16_bits(v)).x;
#else
  return v;
#endif
}

void main() {
  Shape s = Shape(args.shape);
  uint64_t c = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (c >= uint64_t(s.c)) return;
  uint tid = gl_LocalInvocationID.x;
  uint64_t count = uint64_t(s.n * s.hw);
  int64_t first = int64_t(c) * s.stride_c;
  WG_T eps = from_bits(args.eps);
  WG_T w = args.weight != 0 ? p_at(args.weight, c) : WG_T(1);
  WG_T mean, invstd;
#if defined(OP_forward) || defined(OP_update_stats)
  Welford acc = Welford(WG_T(0), WG_T(0), WG_T(0));
  for (uint64_t j = tid; j < count; j += kWorkgroupSize) {
    welford_add(acc, WG_T(X_load(args.x + uint64_t(first + block_offset(j, s, s.stride_n)) * X_BYTES)));
  }
  acc = workgroup_welford(acc);
  mean = as_p(acc.mean);
  acc.m2 = as_p(acc.m2);
  WG_T var = acc.m2 / WG_T(count);
  invstd = as_p(var == WG_T(0) && eps == WG_T(0) ? WG_T(0) : WG_T(1) / sqrt(var + eps));
  if (tid == 0) {
    p_set(args.save_mean, c, mean);
#ifdef OP_update_stats
    p_set(args.save_invstd, c, var);
#else
    p_set(args.save_invstd, c, invstd);
#endif
    WG_T momentum = from_bits(args.momentum);
    if (args.running_mean != 0) {
      WG_T r = p_at(args.running_mean, c);
      p_set(args.running_mean, c, momentum * mean + (WG_T(1) - momentum) * r);
    }
    if (args.running_var != 0) {
      WG_T r = p_at(args.running_var, c);
      p_set(args.running_var, c, momentum * (acc.m2 / WG_T(count - 1)) + (WG_T(1) - momentum) * r);
    }
  }
#elif defined(OP_forward_eval) || defined(OP_backward_eval)
  mean = p_at(args.running_mean, c);
  invstd = WG_T(1) / sqrt(p_at(args.running_var, c) + eps);
#else
  mean = p_at(args.save_mean, c);
  invstd = p_at(args.save_invstd, c);
#endif
#if defined(OP_forward) || defined(OP_forward_eval)
  WG_T a = invstd * w;
  WG_T b = (args.bias != 0 ? p_at(args.bias, c) : WG_T(0)) - mean * a;
  for (uint64_t j = tid; j < count; j += kWorkgroupSize) {
    uint64_t at = uint64_t(first + block_offset(j, s, s.stride_n)) * X_BYTES;
    X_store(args.target + at, X_T(WG_T(X_load(args.x + at)) * a + b));
  }
#elif defined(OP_backward) || defined(OP_backward_eval)
  WG_T sum_dy = WG_T(0), dot = WG_T(0);
#if defined(OP_backward)
  bool need_sums = true;
#else
  bool need_sums = args.grad_weight != 0 || args.grad_bias != 0;
#endif
  if (need_sums) {  // uniform: every invocation reaches the barriers or none
    for (uint64_t j = tid; j < count; j += kWorkgroupSize) {
      uint64_t at = uint64_t(first + block_offset(j, s, s.stride_n)) * X_BYTES;
      WG_T g = WG_T(X_load(args.dy + at));
      sum_dy += g;
      dot += (WG_T(X_load(args.x + at)) - mean) * g;
    }
    sum_dy = workgroup_sum(sum_dy);
    dot = workgroup_sum(dot);
  }
  if (tid == 0) {
    if (args.grad_weight != 0) p_set(args.grad_weight, c, dot * invstd);
    if (args.grad_bias != 0) p_set(args.grad_bias, c, sum_dy);
  }
  if (args.target == 0) return;
  WG_T scale = invstd * w;
#if defined(OP_backward)
  WG_T grad_mean = sum_dy / WG_T(count);
  WG_T k = dot * invstd * invstd / WG_T(count);
#endif
  for (uint64_t j = tid; j < count; j += kWorkgroupSize) {
    uint64_t at = uint64_t(first + block_offset(j, s, s.stride_n)) * X_BYTES;
    WG_T g = WG_T(X_load(args.dy + at));
#if defined(OP_backward)
    g = g - grad_mean - (WG_T(X_load(args.x + at)) - mean) * k;
#endif
    X_store(args.target + at, X_T(g * scale));
  }
#endif
}
