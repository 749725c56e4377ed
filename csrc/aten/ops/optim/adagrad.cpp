// _fused_adagrad_ (lr as a float or a tensor): one multi-tensor dispatch per
// dtype (shaders/optim/adagrad.comp) updates param and the sum of squared
// gradients, unscaling the gradient by grad_scale and skipping the step
// where found_inf is set, without a sync.
#include <torch/library.h>

#include "aten/ops/optim/fused.h"

namespace torchvulkan::optim {
namespace {

using at::TensorList;

void adagrad(TensorList params, TensorList grads, TensorList state_sums, TensorList steps,
             double lr, const std::optional<at::Tensor>& lr_tensor, double lr_decay,
             double weight_decay, double eps, bool maximize,
             const std::optional<at::Tensor>& grad_scale,
             const std::optional<at::Tensor>& found_inf) {
  run({.kernel = "fused_adagrad.step",
       .params = params,
       .grads = grads,
       .states = {state_sums},
       .steps_operand = true,
       .steps = steps,
       .values = {lr, lr_decay, weight_decay, eps},
       .options = uint64_t(maximize),
       .lr = lr_tensor,
       .grad_scale = grad_scale,
       .found_inf = found_inf});
}

void adagrad_float_lr(TensorList params, TensorList grads, TensorList state_sums, TensorList steps,
                      double lr, double lr_decay, double weight_decay, double eps, bool maximize,
                      const std::optional<at::Tensor>& grad_scale,
                      const std::optional<at::Tensor>& found_inf) {
  adagrad(params, grads, state_sums, steps, lr, std::nullopt, lr_decay, weight_decay, eps, maximize,
          grad_scale, found_inf);
}

// A host lr is read once here; a device lr is read by the kernel (no sync).
void adagrad_tensor_lr(TensorList params, TensorList grads, TensorList state_sums, TensorList steps,
                       const at::Tensor& lr, double lr_decay, double weight_decay, double eps,
                       bool maximize, const std::optional<at::Tensor>& grad_scale,
                       const std::optional<at::Tensor>& found_inf) {
  bool host = lr.device().is_cpu();
  adagrad(params, grads, state_sums, steps, host ? lr.item<double>() : 0.0,
          host ? std::nullopt : std::optional<at::Tensor>(lr), lr_decay, weight_decay, eps,
          maximize, grad_scale, found_inf);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_fused_adagrad_", adagrad_float_lr);
  m.impl("_fused_adagrad_.tensor_lr", adagrad_tensor_lr);
}

}  // namespace torchvulkan::optim
