#pragma once
// Shared pieces of the _foreach_ ops: each op checks its arguments as ATen
// does, takes the multi-tensor fast path when ATen's own fast-route test
// passes (same device and dtype, dense, matching strides, no type promotion)
// and a kernel variant exists, and otherwise runs ATen's per-tensor slow
// path (a loop of native per-tensor ops).
#include <ATen/native/ForeachUtils.h>

#include <string>
#include <string_view>
#include <vector>

#include "aten/ops/foreach/multi_tensor.h"

namespace torchvulkan::foreach {

using at::TensorList;

// "<family>.<op>.<dtype>", or "" when that variant was not built.
std::string kernel(const char* family, std::string_view op, const at::Tensor& like);

std::vector<at::Tensor> empty_like(TensorList self);

// out = op(inputs...), over every tensor of `out`.
void run(const std::string& kernel, TensorList out, std::vector<MultiOperand> inputs,
         MultiLaunch launch = {});

// Scalar parameters in the kernels' compute type of `like`.
uint64_t bits(const c10::Scalar& value, const at::Tensor& like);
MultiLaunch per_tensor(int slot, at::ArrayRef<c10::Scalar> scalars, const at::Tensor& like);

}  // namespace torchvulkan::foreach
