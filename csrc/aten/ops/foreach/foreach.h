#pragma once
// Shared pieces of the _foreach_ ops: each op checks its arguments as ATen
// does, takes the multi-tensor fast path when ATen's own fast-route test
// passes (same device and dtype, dense, matching strides, no type promotion)
// and a kernel variant exists, and otherwise runs ATen's per-tensor slow
// path (a loop of native per-tensor ops).
//
// What torch 2.13 calls (torch/optim/adam.py, sgd.py, nn/utils/clip_grad.py):
//   Adam/AdamW foreach: _foreach_neg (maximize), _foreach_mul_.Scalar and
//     _foreach_add(_).List (weight decay), _foreach_lerp_.Scalar,
//     _foreach_mul_.Scalar, _foreach_addcmul_.Scalar, _foreach_maximum_.List
//     (amsgrad), _foreach_sqrt, _foreach_div_.ScalarList, _foreach_add_.Scalar,
//     _foreach_addcdiv_.ScalarList; with capturable also _foreach_add_.Scalar
//     (device steps), _foreach_pow.ScalarAndTensor, _foreach_sub_.Scalar,
//     _foreach_neg_, _foreach_div_.Scalar, _foreach_reciprocal_, _foreach_sqrt_,
//     _foreach_div_.List and _foreach_addcdiv_.Scalar; a tensor beta2 adds
//     _foreach_mul.Tensor.
//   fused=True: _foreach_add_.Scalar on the steps, _fused_adam(w)_ or
//     _fused_sgd_, and _foreach_sub_.List of found_inf from the steps.
//   SGD foreach: _foreach_neg, _foreach_add(_).List, _foreach_mul_.Scalar.
//   clip_grad_norm_: _foreach_norm.Scalar, _foreach_mul_.Tensor;
//   clip_grad_value_: _foreach_clamp_min_.Scalar, _foreach_clamp_max_.Scalar.
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
