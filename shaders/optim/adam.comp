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

// This workgroup's tensor's settings (main sets them).
uint options;
X_T lr, beta1, beta2, weight_decay, eps, step_size, bias_correction2_sqrt, scale;
bool scaled;

// One element's step: param, grad (unscaled in place), the moments and, with
// amsgrad, their running maximum.
void update(inout X_T param, inout X_T grad, inout X_T exp_avg, inout X_T exp_avg_sq, inout X_T max_sq) {
  if (scaled) grad = grad / scale;
  X_T g = (options & kMaximize) != 0 ? -grad : grad;
  if (weight_decay != X_T(0)) {
    if ((options & kDecoupled) != 0) {
      param -= lr * weight_decay * param;
    } else {
      g += param * weight_decay;
    }
  }
  exp_avg = beta1 * exp_avg + (X_T(1) - beta1) * g;
  exp_avg_sq = beta2 * exp_avg_sq + (X_T(1) - beta2) * g * g;
  X_T second = exp_avg_sq;
  if ((options & kAmsgrad) != 0) {
    max_sq = max(max_sq, exp_avg_sq);
    second = max_sq;
  }
  X_T denom = sqrt(second) / bias_correction2_sqrt + eps;
  param = param - step_size * exp_avg / denom;
}

void element(uint64_t i) {
  X_T param = load(0, i), grad = load(1, i), m = load(2, i), v = load(3, i);
  X_T vmax = (options & kAmsgrad) != 0 ? load(4, i) : X_T(0);
  update(param, grad, m, v, vmax);
  if (scaled) store(1, i, grad);
  store(2, i, m);
  store(3, i, v);
  if ((options & kAmsgrad) != 0) store(4, i, vmax);
  store(0, i, param);
}

void elementv(uint64_t i) {
  X_T param[VEC], grad[VEC], m[VEC], v[VEC], vmax[VEC];
  X_loadv(mt_address(0, i, X_BYTES), param);
  X_loadv(mt_address(1, i, X_BYTES), grad);
  X_loadv(mt_address(2, i, X_BYTES), m);
  X_loadv(mt_address(3, i, X_BYTES), v);
  if ((options & kAmsgrad) != 0) X_loadv(mt_address(4, i, X_BYTES), vmax);
  for (int k = 0; k < VEC; ++k) update(param[k], grad[k], m[k], v[k], vmax[k]);
  if (scaled) X_storev(mt_address(1, i, X_BYTES), grad);
  X_storev(mt_address(2, i, X_BYTES), m);
  X_storev(mt_address(3, i, X_BYTES), v);
  if ((options & kAmsgrad) != 0) X_storev(mt_address(4, i, X_BYTES), vmax);
  X_storev(mt_address(0, i, X_BYTES), param);
}

void main() {
  if (!mt_locate()) return;
  // A step skipped by the grad scaler (inf or NaN gradients) changes nothing.
  if (mt_ptr(7) != 0 && tensor_value(7) == 1.0) return;
  options = uint(args.scalar[5]);
  lr = mt_ptr(8) != 0 ? X_T(tensor_value(8)) : X_SCALAR(0);
  beta1 = X_SCALAR(1);
  beta2 = X_SCALAR(2);
  weight_decay = X_SCALAR(3);
  eps = X_SCALAR(4);
  X_T step = X_T(tensor_value(5));
  step_size = lr / (X_T(1) - m_exp(step * m_log(beta1)));
  bias_correction2_sqrt = sqrt(X_T(1) - m_exp(step * m_log(beta2)));
  scaled = mt_ptr(6) != 0;
  scale = scaled ? X_T(tensor_value(6)) : X_T(1);
  FOR_EACH_CHUNK_ELEMENT_VECTORIZED(element, elementv)
}
