// _fused_sgd_ over lists of tensors, in X's compute type (float for 16-bit
// parameters). Operands: 0 param, 1 grad, 2 momentum_buffer (or none),
// 3 grad_scale, 4 found_inf, 5 lr (float tensors of one element, or none).
// Scalars: 0 lr, 1 weight_decay, 2 momentum, 3 dampening, 5 option bits.
#include "common/multi_tensor.glsl"

const uint kNesterov = 1u, kMaximize = 2u, kFirstStep = 4u;

X_T load(int op, uint64_t i) { return X_load(mt_address(op, i, X_BYTES)); }
void store(int op, uint64_t i, X_T v) { X_store(mt_address(op, i, X_BYTES), v); }
float tensor_value(int op) { return RefF32(mt_ptr(op)).v; }

// This workgroup's tensor's settings (main sets them).
uint options;
X_T lr, weight_decay, momentum, dampening, scale;
bool scaled, has_buffer;

// One element's step: param, grad (unscaled in place) and the momentum buffer.
void update(inout X_T param, inout X_T grad, inout X_T velocity) {
  if (scaled) grad = grad / scale;
  X_T g = (options & kMaximize) != 0 ? -grad : grad;
  if (weight_decay != X_T(0)) g += weight_decay * param;
  if (has_buffer) {
    velocity = (options & kFirstStep) != 0 ? g : momentum * velocity + (X_T(1) - dampening) * g;
    g = (options & kNesterov) != 0 ? g + momentum * velocity : velocity;
  }
  param = param - lr * g;
}

void element(uint64_t i) {
  X_T param = load(0, i), grad = load(1, i);
  X_T velocity = has_buffer && (options & kFirstStep) == 0 ? load(2, i) : X_T(0);
  update(param, grad, velocity);
  if (scaled) store(1, i, grad);
  if (has_buffer) store(2, i, velocity);
  store(0, i, param);
}

void elementv(uint64_t i) {
  X_T param[VEC], grad[VEC], velocity[VEC];
  X_loadv(mt_address(0, i, X_BYTES), param);
  X_loadv(mt_address(1, i, X_BYTES), grad);
  if (has_buffer && (options & kFirstStep) == 0) X_loadv(mt_address(2, i, X_BYTES), velocity);
  for (int k = 0; k < VEC; ++k) update(param[k], grad[k], velocity[k]);
  if (scaled) X_storev(mt_address(1, i, X_BYTES), grad);
  if (has_buffer) X_storev(mt_address(2, i, X_BYTES), velocity);
  X_storev(mt_address(0, i, X_BYTES), param);
}

void main() {
  if (!mt_locate()) return;
  // A step skipped by the grad scaler (inf or NaN gradients) changes nothing.
  if (mt_ptr(4) != 0 && tensor_value(4) == 1.0) return;
  options = uint(args.scalar[5]);
  lr = mt_ptr(5) != 0 ? X_T(tensor_value(5)) : X_SCALAR(0);
  weight_decay = X_SCALAR(1);
  momentum = X_SCALAR(2);
  dampening = X_SCALAR(3);
  scaled = mt_ptr(3) != 0;
  scale = scaled ? X_T(tensor_value(3)) : X_T(1);
  has_buffer = mt_ptr(2) != 0;
  FOR_EACH_CHUNK_ELEMENT_VECTORIZED(element, elementv)
}
