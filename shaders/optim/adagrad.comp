// _fused_adagrad_ over lists of tensors, in X's compute type (float for
// 16-bit parameters). Operands: 0 param, 1 grad, 2 state_sum, 3 step (float,
// per tensor, already counted up by torch.optim), 4 grad_scale, 5 found_inf,
// 6 lr (float tensors of one element, or none).
// Scalars: 0 lr, 1 lr_decay, 2 weight_decay, 3 eps, 5 option bits.
#include "common/multi_tensor.glsl"

const uint kMaximize = 1u;

X_T load(int op, uint64_t i) { return X_load(mt_address(op, i, X_BYTES)); }
void store(int op, uint64_t i, X_T v) { X_store(mt_address(op, i, X_BYTES), v); }
float tensor_value(int op) { return RefF32(mt_ptr(op)).v; }

// This workgroup's tensor's settings (main sets them).
uint options;
X_T clr, weight_decay, eps, scale;
bool scaled;

// One element's step: param, grad (unscaled in place) and the sum of squares.
void update(inout X_T param, inout X_T grad, inout X_T state_sum) {
  if (scaled) grad = grad / scale;
  X_T g = (options & kMaximize) != 0 ? -grad : grad;
  if (weight_decay != X_T(0)) g += param * weight_decay;
  state_sum += g * g;
  param = param - clr * g / (sqrt(state_sum) + eps);
}

void element(uint64_t i) {
  X_T param = load(0, i), grad = load(1, i), state_sum = load(2, i);
  update(param, grad, state_sum);
  if (scaled) store(1, i, grad);
  store(2, i, state_sum);
  store(0, i, param);
}

void elementv(uint64_t i) {
  X_T param[VEC], grad[VEC], state_sum[VEC];
  X_loadv(mt_address(0, i, X_BYTES), param);
  X_loadv(mt_address(1, i, X_BYTES), grad);
  X_loadv(mt_address(2, i, X_BYTES), state_sum);
  for (int k = 0; k < VEC; ++k) update(param[k], grad[k], state_sum[k]);
  if (scaled) X_storev(mt_address(1, i, X_BYTES), grad);
  X_storev(mt_address(2, i, X_BYTES), state_sum);
  X_storev(mt_address(0, i, X_BYTES), param);
}

void main() {
  if (!mt_locate()) return;
  // A step skipped by the grad scaler (inf or NaN gradients) changes nothing.
  if (mt_ptr(5) != 0 && tensor_value(5) == 1.0) return;
  options = uint(args.scalar[5]);
  X_T lr = mt_ptr(6) != 0 ? X_T(tensor_value(6)) : X_SCALAR(0);
  // The learning rate decayed by the step count: lr / (1 + (step - 1) lr_decay).
  clr = lr / (X_T(1) + (X_T(tensor_value(3)) - X_T(1)) * X_SCALAR(1));
  weight_decay = X_SCALAR(2);
  eps = X_SCALAR(3);
  scaled = mt_ptr(4) != 0;
  scale = scaled ? X_T(tensor_value(4)) : X_T(1);
  FOR_EACH_CHUNK_ELEMENT_VECTORIZED(element, elementv)
}
