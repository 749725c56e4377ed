// _fused_adam_ and _fused_adamw_ (lr as a float or a tensor): one
// multi-tensor dispatch per dtype (shaders/optim/adam.comp) updates param,
// exp_avg, exp_avg_sq (and max_exp_avg_sq), unscaling the gradient by
// grad_scale and skipping the step where found_inf is set, without a sync.
#include <torch/library.h>

#include "aten/ops/optim/fused.h"

namespace torchvulkan::optim {
namespace {

using at::TensorList;

void adam(TensorList params, TensorList grads, TensorList exp_avgs, TensorList exp_avg_sqs,
          TensorList max_exp_avg_sqs, TensorList steps, double lr,
          const std::optional<at::Tensor>& lr_tensor, double beta1, double beta2,
          double weight_decay, double eps, bool amsgrad, bool maximize,
          const std::optional<at::Tensor>& grad_scale, const std::optional<at::Tensor>& found_inf,
          bool decoupled) {
  TORCH_CHECK(!amsgrad || max_exp_avg_sqs.size() == params.size(),
              "amsgrad needs one max_exp_avg_sq per parameter, got ", max_exp_avg_sqs.size());
  run({.kernel = "fused_adam.step",
       .params = params,
       .grads = grads,
       .states = {exp_avgs, exp_avg_sqs, amsgrad ? max_exp_avg_sqs : TensorList()},
       .steps_operand = true,
       .steps = steps,
       .values = {lr, beta1, beta2, weight_decay, eps},
       .options = uint64_t(amsgrad) | uint64_t(maximize) << 1 | uint64_t(decoupled) << 2,
       .lr = lr_tensor,
       .grad_scale = grad_scale,
       .found_inf = found_inf});
}

template <bool Decoupled>
void adam_float_lr(TensorList params, TensorList grads, TensorList exp_avgs, TensorList exp_avg_sqs,
                   TensorList max_exp_avg_sqs, TensorList steps, double lr, double beta1,
                   double beta2, double weight_decay, double eps, bool amsgrad, bool maximize,
                   const std::optional<at::Tensor>& grad_scale,
                   const std::optional<at::Tensor>& found_inf) {
  adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps, lr, std::nullopt, beta1, beta2,
       weight_decay, eps, amsgrad, maximize, grad_scale, found_inf, Decoupled);
}

// A host lr is read once here; a device lr is read by the kernel (no sync).
template <bool Decoupled>
void adam_tensor_lr(TensorList params, TensorList grads, TensorList exp_avgs,
                    TensorList exp_avg_sqs, TensorList max_exp_avg_sqs, TensorList steps,
                    const at::Tensor& lr, double beta1, double beta2, double weight_decay,
                    double eps, bool amsgrad, bool maximize,
                    const std::optional<at::Tensor>& grad_scale,
                    const std::optional<at::Tensor>& found_inf) {
  bool host = lr.device().is_cpu();
  adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps, host ? lr.item<double>() : 0.0,
       host ? std::nullopt : std::optional<at::Tensor>(lr), beta1, beta2, weight_decay, eps,
       amsgrad, maximize, grad_scale, found_inf, Decoupled);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_fused_adam_", adam_float_lr<false>);
  m.impl("_fused_adam_.tensor_lr", adam_tensor_lr<false>);
  m.impl("_fused_adamw_", adam_float_lr<true>);
  m.impl("_fused_adamw_.tensor_lr", adam_tensor_lr<true>);
}

}  // namespace torchvulkan::optim
