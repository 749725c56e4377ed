// _fused_sgd_ (lr as a float or a tensor): one multi-tensor dispatch per
// dtype (shaders/optim/sgd.comp) updates param and the momentum buffer,
// unscaling the gradient by grad_scale and skipping the step where
// found_inf is set, without a sync.
#include <torch/library.h>

#include "aten/ops/optim/fused.h"

namespace torchvulkan::optim {
namespace {

using at::TensorList;

void sgd(TensorList params, TensorList grads, TensorList buffers, double weight_decay,
         double momentum, double lr, const std::optional<at::Tensor>& lr_tensor, double dampening,
         bool nesterov, bool maximize, bool is_first_step,
         const std::optional<at::Tensor>& grad_scale, const std::optional<at::Tensor>& found_inf) {
  TORCH_CHECK(params.empty() || !buffers.empty() || momentum == 0,
              "_fused_sgd_ needs momentum buffers when momentum is not 0");
  run({.kernel = "fused_sgd.step",
       .params = params,
       .grads = grads,
       .states = {buffers},
       .values = {lr, weight_decay, momentum, dampening},
       .options = uint64_t(nesterov) | uint64_t(maximize) << 1 | uint64_t(is_first_step) << 2,
       .lr = lr_tensor,
       .grad_scale = grad_scale,
       .found_inf = found_inf});
}

void sgd_float_lr(TensorList params, TensorList grads, TensorList buffers, double weight_decay,
                  double momentum, double lr, double dampening, bool nesterov, bool maximize,
                  bool is_first_step, const std::optional<at::Tensor>& grad_scale,
                  const std::optional<at::Tensor>& found_inf) {
  sgd(params, grads, buffers, weight_decay, momentum, lr, std::nullopt, dampening, nesterov,
      maximize, is_first_step, grad_scale, found_inf);
}

// A host lr is read once here; a device lr is read by the kernel (no sync).
void sgd_tensor_lr(TensorList params, TensorList grads, TensorList buffers, double weight_decay,
                   double momentum, const at::Tensor& lr, double dampening, bool nesterov,
                   bool maximize, bool is_first_step, const std::optional<at::Tensor>& grad_scale,
                   const std::optional<at::Tensor>& found_inf) {
  bool host = lr.device().is_cpu();
  sgd(params, grads, buffers, weight_decay, momentum, host ? lr.item<double>() : 0.0,
      host ? std::nullopt : std::optional<at::Tensor>(lr), dampening, nesterov, maximize,
      is_first_step, grad_scale, found_inf);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_fused_sgd_", sgd_float_lr);
  m.impl("_fused_sgd_.tensor_lr", sgd_tensor_lr);
}

}  // namespace torchvulkan::optim
