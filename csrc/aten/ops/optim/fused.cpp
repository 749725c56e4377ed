#include "aten/ops/optim/fused.h"

#include <map>

namespace torchvulkan::optim {

std::vector<std::vector<size_t>> group_by_dtype(at::TensorList params,
                                                std::initializer_list<at::TensorList> lists,
                                                at::TensorList steps) {
  for (at::TensorList list : lists) {
    TORCH_CHECK(list.empty() || list.size() == params.size(),
                "Expected all tensor lists to have the same length, got ", params.size(), " and ",
                list.size());
  }
  TORCH_CHECK(steps.empty() || steps.size() == params.size(),
              "Expected state_steps to have length ", params.size(), ", got ", steps.size());
  std::map<c10::ScalarType, std::vector<size_t>> groups;
  for (size_t i = 0; i < params.size(); ++i) {
    const at::Tensor& p = params[i];
    TORCH_CHECK(p.device().is_privateuseone() && at::isFloatingType(p.scalar_type()) &&
                    p.is_non_overlapping_and_dense(),
                "fused optimizers expect dense floating-point vulkan parameters, got ",
                p.scalar_type(), " on ", p.device());
    for (at::TensorList list : lists) {
      if (list.empty()) continue;
      const at::Tensor& t = list[i];
      TORCH_CHECK(t.device() == p.device() && t.scalar_type() == p.scalar_type() &&
                      t.sizes() == p.sizes() && t.strides() == p.strides(),
                  "fused optimizers expect the state and gradient of a parameter to match its "
                  "device, dtype, sizes "
                  "and strides");
    }
    if (!steps.empty()) {
      TORCH_CHECK(steps[i].device() == p.device() && steps[i].scalar_type() == c10::kFloat &&
                      steps[i].numel() == 1,
                  "fused optimizers expect each state_step to be a one-element float32 tensor on "
                  "the parameter's "
                  "device");
    }
    groups[p.scalar_type()].push_back(i);
  }
  std::vector<std::vector<size_t>> out;
  for (auto& [type, indices] : groups) out.push_back(std::move(indices));
  return out;
}

MultiOperand pick(at::TensorList list, const std::vector<size_t>& indices, bool write) {
  MultiOperand op;
  op.write = write;
  if (list.empty()) return op;
  for (size_t i : indices) op.tensors.push_back(list[i]);
  return op;
}

MultiOperand value_of(const std::optional<at::Tensor>& tensor, const at::Tensor& like,
                      const char* what) {
  if (!tensor || !tensor->defined()) return {};
  TORCH_CHECK(tensor->numel() == 1, what, " must have one element, got ", tensor->numel());
  return MultiOperand::element(tensor->to(like.device(), c10::kFloat));
}

}  // namespace torchvulkan::optim
