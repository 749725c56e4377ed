#pragma once
// What the fused optimizers share: the checks, the grouping by dtype and the launch.
#include <ATen/core/Tensor.h>

#include <optional>
#include <vector>

#include "aten/ops/foreach/multi_tensor.h"

namespace torchvulkan::optim {

// One fused optimizer step: a launch of `kernel`.<dtype> per parameter
// dtype, with operands params (written), grads (written back, unscaled, when
// grad_scale is given), `states` (written; an empty list passes no tensors),
// the steps' first elements (when `steps_operand`), then grad_scale,
// found_inf and a device lr as one-element float tensors (or nothing), and
// scalars `values` (in the group's compute type) then `options` in the last
// slot. Checks that the lists have params's length and that the tensors of
// each index share its dtype, sizes and strides, dense, on the device.
struct FusedStep {
  const char* kernel;
  at::TensorList params, grads;
  std::vector<at::TensorList> states;
  bool steps_operand = false;
  at::TensorList steps;
  std::vector<double> values;  // at most 5
  uint64_t options = 0;
  std::optional<at::Tensor> lr, grad_scale, found_inf;
};
void run(const FusedStep& step);

}  // namespace torchvulkan::optim
