// torch.amp.GradScaler's two ops, with the checks and semantics of CUDA's:
// _amp_foreach_non_finite_check_and_unscale_ (one multi-tensor dispatch per
// dtype, shaders/optim/amp_unscale.comp) and _amp_update_scale_ (one
// invocation, shaders/optim/amp_update_scale.comp). Neither syncs.
#include <torch/library.h>

#include <map>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/ops/foreach/multi_tensor.h"

namespace torchvulkan::optim {
namespace {

// type_name with its article: "a float", "an int".
void check_scalar_tensor(const at::Tensor& t, const char* name, c10::ScalarType type,
                         const char* type_name) {
  TORCH_CHECK(t.device().is_privateuseone(), name, " must be a vulkan tensor.");
  TORCH_CHECK(t.numel() == 1, name, " must be a 1-element tensor.");
  TORCH_CHECK(t.scalar_type() == type, name, " must be ", type_name, " tensor.");
}

void unscale(at::TensorList grads, at::Tensor& found_inf, const at::Tensor& inv_scale) {
  if (grads.empty()) return;
  check_scalar_tensor(inv_scale, "inv_scale", c10::kFloat, "a float");
  check_scalar_tensor(found_inf, "found_inf", c10::kFloat, "a float");
  TORCH_CHECK(inv_scale.device() == found_inf.device(),
              "inv_scale and found_inf must be on the same device.");
  // Dense gradients go by dtype into one launch each; any other layout
  // through a dense copy (the multi-tensor table has no strides).
  std::map<c10::ScalarType, std::vector<at::Tensor>> groups;
  std::vector<std::pair<at::Tensor, at::Tensor>> copies;
  for (const at::Tensor& grad : grads) {
    TORCH_CHECK(grad.device() == inv_scale.device(),
                "scaled_grads must be on the same device as inv_scale, got ", grad.device(),
                " and ", inv_scale.device());
    TORCH_CHECK(grad.layout() == at::kStrided, "one of scaled_grads was not a strided tensor.");
    TORCH_CHECK(at::isFloatingType(grad.scalar_type()), "scaled_grads must be floating-point, got ",
                grad.scalar_type());
    if (grad.numel() == 0) continue;
    if (grad.is_non_overlapping_and_dense()) {
      groups[grad.scalar_type()].push_back(grad);
    } else {
      at::Tensor dense = grad.contiguous();
      groups[grad.scalar_type()].push_back(dense);
      copies.emplace_back(grad, dense);
    }
  }
  for (auto& [type, tensors] : groups) {
    MultiLaunch launch;
    launch.vector = true;  // the kernel has a vector path
    multi_tensor_apply(std::string("amp_unscale.grads.") + dtype_name(type),
                       {MultiOperand::list(tensors, true), MultiOperand{{found_inf}, true, true},
                        MultiOperand::element(inv_scale)},
                       launch);
  }
  for (auto& [grad, dense] : copies) grad.copy_(dense);
}

struct UpdateScaleArgs {
  uint64_t scale, tracker, found_inf;
  float growth_factor, backoff_factor;
  int32_t growth_interval, pad;
};

at::Tensor& update_scale(at::Tensor& scale, at::Tensor& growth_tracker, const at::Tensor& found_inf,
                         double growth_factor, double backoff_factor, int64_t growth_interval) {
  check_scalar_tensor(growth_tracker, "growth_tracker", c10::kInt, "an int");
  check_scalar_tensor(scale, "current_scale", c10::kFloat, "a float");
  check_scalar_tensor(found_inf, "found_inf", c10::kFloat, "a float");
  TORCH_CHECK(scale.device() == growth_tracker.device() && scale.device() == found_inf.device(),
              "current_scale, growth_tracker and found_inf must be on the same device.");
  UpdateScaleArgs args{address_of(scale),
                       address_of(growth_tracker),
                       address_of(found_inf),
                       static_cast<float>(growth_factor),
                       static_cast<float>(backoff_factor),
                       static_cast<int32_t>(growth_interval),
                       0};
  rt::Device& dev = device_for(scale);
  std::vector<rt::Access> accesses = {span_of(scale, true), span_of(growth_tracker, true),
                                      span_of(found_inf, false)};
  dev.stream().dispatch(dev.pipelines().get("amp_update_scale.scale.f32"), &args, sizeof(args),
                        nullptr, 0, 1, accesses);
  return scale;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_amp_foreach_non_finite_check_and_unscale_", unscale);
  m.impl("_amp_update_scale_", update_scale);
}

}  // namespace torchvulkan::optim
