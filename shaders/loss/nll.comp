// Negative log likelihood of input [N, C], with t = target[n], w = the class
// weights (1 when absent) and 0 for samples whose t is ignore_index:
//   samples (one invocation a sample): loss[n] = -w[t] * x[n, t], and
//     weight[n] = w[t] where asked for (the sums' weights past one workgroup)
//   total (one workgroup, sum and mean): output = sum_n -w[t] * x[n, t],
//     divided for mean by total_weight = sum_n w[t], both summed in float
//     and written as X, as CUDA's reduction does
//   backward (one invocation an element of the dense grad_input [N, C]):
//     grad[n, c] = c == t ? -w[t] * g(n) : 0, with g(n) the output gradient
//     per sample (reduction none), or the scalar one, divided by the total
//     weight for mean; zeros written here rather than by a fill before.
// A target outside [0, C) other than ignore_index is reported
// (common/fault.glsl) and counts as ignored.
#ifdef OP_total
#include "common/workgroup.glsl"
#endif
#include "common/fault.glsl"

layout(push_constant) uniform NllArgs {
  uint64_t source;      // x, or backward's grad_output
  uint64_t target;      // int64 [N]
  uint64_t weight;      // X [C] or 0
  uint64_t result;      // loss [N], the output, or grad_input [N, C]
  uint64_t out_weight;  // weight [N] (or 0), or total_weight
  int64_t samples, classes, ignore_index;
  int64_t sample_stride, class_stride, target_stride;  // in elements
  uint mode;            // 0 none, 1 sum, 2 mean
} nll;

// Sample n's target, or -1 where it is ignored or out of range.
int64_t target_of(int64_t n) {
  int64_t t = RefI64(nll.target + uint64_t(n * nll.target_stride) * 8).v;
  if (t == nll.ignore_index) return -1;
  if (t < 0 || t >= nll.classes) {
    report_fault(FAULT_INDEX);
    return -1;
  }
  return t;
}

float weight_of(int64_t t) {
  return t < 0 ? 0.0 : (nll.weight != 0 ? float(X_load(nll.weight + uint64_t(t) * X_BYTES)) : 1.0);
}

float loss_of(int64_t n, int64_t t, float w) {
  return t < 0 ? 0.0 : -w * float(X_load(nll.source + uint64_t(n * nll.sample_stride + t * nll.class_stride) * X_BYTES));
}

void main() {
#if defined(OP_samples)
  int64_t n = int64_t(global_index());
  if (n >= nll.samples) return;
  int64_t t = target_of(n);
  float w = weight_of(t);
  X_store(nll.result + uint64_t(n) * X_BYTES, X_T(loss_of(n, t, w)));
  if (nll.out_weight != 0) X_store(nll.out_weight + uint64_t(n) * X_BYTES, X_T(w));
#elif defined(OP_total)
  float loss = 0.0, total = 0.0;
  for (int64_t n = int64_t(gl_LocalInvocationID.x); n < nll.samples; n += kWorkgroupSize) {
    int64_t t = target_of(n);
    float w = weight_of(t);
    loss += loss_of(n, t, w);
    total += w;
  }
  loss = workgroup_sum(loss);
  total = workgroup_sum(total);
  if (gl_LocalInvocationID.x == 0) {
    X_store(nll.result, X_T(nll.mode == 2 ? loss / total : loss));
    X_store(nll.out_weight, X_T(total));
  }
#else
  int64_t i = int64_t(global_index());
  if (i >= nll.samples * nll.classes) return;
  int64_t n = i / nll.classes, c = i - n * nll.classes;
  int64_t t = target_of(n);
  X_T value = X_T(0);
  if (c == t) {
    X_T g = X_load(nll.source + (nll.mode == 0 ? uint64_t(n) * X_BYTES : 0));
    if (nll.mode == 2) g /= X_load(nll.out_weight);
    value = X_T(-weight_of(t)) * g;
  }
  X_store(nll.result + uint64_t(i) * X_BYTES, value);
#endif
}
