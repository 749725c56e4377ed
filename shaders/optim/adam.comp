// _fused_adam_ / _fused_adamw_ over lists of tensors, in X's compute type
// (float for 16-bit parameters). Operands: 0 param, 1 grad, 2 exp_avg,
// 3 exp_avg_sq, 4 max_exp_avg_sq (amsgrad), 5 step (float, per tensor),
// 6 grad_scale, 7 found_inf, 8 lr (float tensors of one element, or none).
// Scalars: 0 lr, 1 beta1, 2 beta2, 3 weight_decay, 4 eps, 5 option bits.
#include "common/multi_tensor.glsl"
#include "common/math.glsl"

const uint kAmsgrad = 1u, kMaximize = 2u, kDecoupled = 4u;

X_T load(int op, uint64_t i) { return X_load(mt_address(op, i, X_BYTES)); }
void store(int op, uint64_t i, X_T v) { X_store(mt_address(op, i, X_BYTES), v); }
float tensor_value(int op) { return RefF32(mt_ptr(op)).v; }

void main() {
  if (!mt_locate()) return;
  // A step skipped by the grad scaler (inf or NaN gradients) changes nothing.
  if (mt_ptr(7) != 0 && tensor_value(7) == 1.0) return;
  uint options = uint(args.scalar[5]);
  X_T lr = mt_ptr(8) != 0 ? X_T(tensor_value(8)) : X_SCALAR(0);
  X_T beta1 = X_SCALAR(1), beta2 = X_SCALAR(2), weight_decay = X_SCALAR(3), eps = X_SCALAR(4);
  X_T step = X_T(tensor_value(5));
  X_T bias_correction1 = X_T(1) - m_exp(step * m_log(beta1));
  X_T bias_correction2_sqrt = sqrt(X_T(1) - m_exp(step * m_log(beta2)));
  X_T step_size = lr / bias_correction1;
  bool scaled = mt_ptr(6) != 0;
  X_T scale = scaled ? X_T(tensor_value(6)) : X_T(1);

  uint64_t first = (mt_group() - mt_word(1)) * kChunk + gl_LocalInvocationID.x;
  uint64_t n = mt_numel();
  for (uint k = 0; k < kPerInvocation; ++k) {
    uint64_t i = first + uint64_t(k) * gl_WorkGroupSize.x;
    if (i >= n) break;
    X_T param = load(0, i);
    X_T grad = load(1, i);
    if (scaled) {
      grad = grad / scale;
      store(1, i, grad);
    }
    if ((options & kMaximize) != 0) grad = -grad;
    if (weight_decay != X_T(0)) {
      if ((options & kDecoupled) != 0) {
        param -= lr * weight_decay * param;
      } else {
        grad += param * weight_decay;
      }
    }
    X_T exp_avg = beta1 * load(2, i) + (X_T(1) - beta1) * grad;
    X_T exp_avg_sq = beta2 * load(3, i) + (X_T(1) - beta2) * grad * grad;
    store(2, i, exp_avg);
    store(3, i, exp_avg_sq);
    X_T second = exp_avg_sq;
    if ((options & kAmsgrad) != 0) {
      second = max(load(4, i), exp_avg_sq);
      store(4, i, second);
    }
    X_T denom = sqrt(second) / bias_correction2_sqrt + eps;
    store(0, i, param - step_size * exp_avg / denom);
  }
}
