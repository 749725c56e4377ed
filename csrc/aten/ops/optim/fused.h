#pragma once
// What the fused optimizers share: argument checks and grouping by dtype.
#include <ATen/core/Tensor.h>

#include <optional>
#include <vector>

#include "aten/ops/foreach/multi_tensor.h"

namespace torchvulkan::optim {

// Checks that `lists` (empty ones aside) have `params`'s length and that the
// tensors of each index share its dtype, sizes and strides, dense, on the
// device; returns the indices grouped by dtype (one launch per dtype).
std::vector<std::vector<size_t>> group_by_dtype(at::TensorList params,
                                                std::initializer_list<at::TensorList> lists,
                                                at::TensorList steps);

// The tensors of `list` at `indices` as an operand.
MultiOperand pick(at::TensorList list, const std::vector<size_t>& indices, bool write);

// A one-element tensor (grad_scale, found_inf, a tensor lr) read by the
// kernels as float, or no operand.
MultiOperand value_of(const std::optional<at::Tensor>& tensor, const at::Tensor& like,
                      const char* what);

}  // namespace torchvulkan::optim
