// _fused_adagrad_ (lr as a float or a tensor): one multi-tensor dispatch per
// dtype (shaders/optim/adagrad.comp) updates param and the sum of squared
// gradients, unscaling the gradient by grad_scale and skipping the step
// where found_inf is set, without a sync.
#include <torch/library.h>

#include "aten/launch.h"
#include "aten/ops/optim/fused.h"

namespace torchvulkan::optim {
namespace {

using at::TensorList;

void adagrad(TensorList params, TensorList grads, TensorList state_sums, TensorList steps,
             double lr, const std::optional<at::Tensor>& lr_tensor, double lr_decay,
             double weight_decay, double eps, bool maximize,
             const std::optional<at::Tensor>& grad_scale,
             const std::optional<at::Tensor>& found_inf) {
  if (params.empty()) return;
  for (const auto& indices : group_by_dtype(params, {grads, state_sums}, steps)) {
    const at::Tensor& like = params[indices[0]];
    c10::ScalarType type = like.scalar_type();
    MultiOperand step = pick(steps, indices, false);
    step.first_element = true;
    MultiLaunch launch;
    launch.scalars = {scalar_bits(lr, type),
                      scalar_bits(lr_decay, type),
                      scalar_bits(weight_decay, type),
                      scalar_bits(eps, type),
                      0,
                      uint64_t(maximize)};
    launch.vector = true;  // the kernel has a vector path
    bool scaled = grad_scale && grad_scale->defined();
    multi_tensor_apply(
        std::string("fused_adagrad.step.") + dtype_name(type),
        {pick(params, indices, true), pick(grads, indices, scaled), pick(state_sums, indices, true),
         step, value_of(grad_scale, like, "grad_scale"), value_of(found_inf, like, "found_inf"),
         value_of(lr_tensor, like, "lr")},
        launch);
  }
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
