// Negative log likelihood, one invocation per sample n of input [N, C]:
//   forward:  loss[n] = -w[t] * x[n, t], weight[n] = w[t]   (0 where t == ignore_index)
//   backward: grad[n, t] = -w[t] * g(n)                      (grad is zero elsewhere)
// with t = target[n], w = the class weights (1 when absent) and g(n) the
// output gradient: per sample (reduction none), or the scalar one, divided by
// the total weight for reduction mean.

layout(push_constant) uniform NllArgs {
  uint64_t source;      // forward: x; backward: grad_output
  uint64_t target;      // int64 [N]
  uint64_t weight;      // X [C] or 0
  uint64_t result;      // forward: loss [N]; backward: grad_input [N, C]
  uint64_t out_weight;  // forward: per-sample weights [N]; backward: total_weight
  int64_t samples, classes, ignore_index;
  int64_t sample_stride, class_stride, target_stride;  // in elements
  uint mode;            // backward: 0 none, 1 sum, 2 mean
} nll;

void main() {
  int64_t n = int64_t(global_index());
  if (n >= nll.samples) return;
  int64_t t = RefI64(nll.target + uint64_t(n * nll.target_stride) * 8).v;
  bool ignored = t == nll.ignore_index;
  X_T w = ignored ? X_T(0) : (nll.weight != 0 ? X_load(nll.weight + uint64_t(t) * X_BYTES) : X_T(1));
#ifdef OP_forward
  X_T x = ignored ? X_T(0) : X_load(nll.source + uint64_t(n * nll.sample_stride + t * nll.class_stride) * X_BYTES);
  X_store(nll.result + uint64_t(n) * X_BYTES, -w * x);
  X_store(nll.out_weight + uint64_t(n) * X_BYTES, w);
#else
  if (ignored) return;
  X_T g = X_load(nll.source + (nll.mode == 0 ? uint64_t(n) * X_BYTES : 0));
  if (nll.mode == 2) g /= X_load(nll.out_weight);
  X_store(nll.result + uint64_t(n * nll.classes + t) * X_BYTES, -w * g);
#endif
}
