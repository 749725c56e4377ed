// _fused_sgd_ over lists of tensors, in X's compute type (float for 16-bit
// parameters). Operands: 0 param, 1 grad, 2 momentum_buffer (or none),
// 3 grad_scale, 4 found_inf, 5 lr (float tensors of one element, or none).
// Scalars: 0 lr, 1 weight_decay, 2 momentum, 3 dampening, 5 option bits.
#include "common/multi_tensor.glsl"

const uint kNesterov = 1u, kMaximize = 2u, kFirstStep = 4u;

X_T load(int op, uint64_t i) { return X_load(mt_address(op, i, X_BYTES)); }
void store(int op, uint64_t i, X_T v) { X_store(mt_address(op, i, X_BYTES), v); }
float tensor_value(int op) { return RefF32(mt_ptr(op)).v; }

void main() {
  if (!mt_locate()) return;
  // A step skipped by the grad scaler (inf or NaN gradients) changes nothing.
  if (mt_ptr(4) != 0 && tensor_value(4) == 1.0) return;
  uint options = uint(args.scalar[5]);
  X_T lr = mt_ptr(5) != 0 ? X_T(tensor_value(5)) : X_SCALAR(0);
  X_T weight_decay = X_SCALAR(1), momentum = X_SCALAR(2), dampening = X_SCALAR(3);
  bool scaled = mt_ptr(3) != 0;
  X_T scale = scaled ? X_T(tensor_value(3)) : X_T(1);
  bool has_buffer = mt_ptr(2) != 0;

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
    if (weight_decay != X_T(0)) grad += weight_decay * param;
    if (has_buffer) {
      X_T velocity = (options & kFirstStep) != 0 ? grad : momentum * load(2, i) + (X_T(1) - dampening) * grad;
      store(2, i, velocity);
      grad = (options & kNesterov) != 0 ? grad + momentum * velocity : velocity;
    }
    store(0, i, param - lr * grad);
  }
}
