#include "aten/ops/optim/fused.h"

#include <map>
#include <string>

#include "aten/launch.h"

namespace torchvulkan::optim {
namespace {

// The indices of params grouped by dtype (one launch per dtype), after
// FusedStep's checks.
std::vector<std::vector<size_t>> group_by_dtype(at::TensorList params,
                                                const std::vector<at::TensorList>& lists,
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

// The tensors of `list` at `indices` as an operand.
MultiOperand pick(at::TensorList list, const std::vector<size_t>& indices, bool write) {
  MultiOperand op;
  op.write = write;
  if (list.empty()) return op;
  for (size_t i : indices) op.tensors.push_back(list[i]);
  return op;
}

// A one-element tensor (grad_scale, found_inf, a tensor lr) read by the
// kernels as float, or no operand.
MultiOperand value_of(const std::optional<at::Tensor>& tensor, const at::Tensor& like,
                      const char* what) {
  if (!tensor || !tensor->defined()) return {};
  TORCH_CHECK(tensor->numel() == 1, what, " must have one element, got ", tensor->numel());
  return MultiOperand::element(tensor->to(like.device(), c10::kFloat));
}

}  // namespace

void run(const FusedStep& step) {
  if (step.params.empty()) return;
  TORCH_CHECK(!step.steps_operand || step.steps.size() == step.params.size(),
              "Expected state_steps to have length ", step.params.size(), ", got ",
              step.steps.size());
  std::vector<at::TensorList> lists = {step.grads};
  lists.insert(lists.end(), step.states.begin(), step.states.end());
  bool scaled = step.grad_scale && step.grad_scale->defined();
  for (const auto& indices : group_by_dtype(step.params, lists, step.steps)) {
    const at::Tensor& like = step.params[indices[0]];
    c10::ScalarType type = like.scalar_type();
    MultiLaunch launch;
    for (size_t i = 0; i < step.values.size(); ++i)
      launch.scalars[i] = scalar_bits(step.values[i], type);
    launch.scalars[5] = step.options;
    launch.vector = true;  // every fused kernel has a vector path
    std::vector<MultiOperand> operands = {pick(step.params, indices, true),
                                          pick(step.grads, indices, scaled)};
    for (at::TensorList state : step.states) operands.push_back(pick(state, indices, true));
    if (step.steps_operand) {
      operands.push_back(pick(step.steps, indices, false));
      operands.back().first_element = true;
    }
    operands.push_back(value_of(step.grad_scale, like, "grad_scale"));
    operands.push_back(value_of(step.found_inf, like, "found_inf"));
    operands.push_back(value_of(step.lr, like, "lr"));
    multi_tensor_apply(std::string(step.kernel) + "." + dtype_name(type), operands, launch);
  }
}

}  // namespace torchvulkan::optim
