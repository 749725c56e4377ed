#pragma once
// What the pooling ops share: ATen's reading of their window arguments, and
// one launch over [N, C, D, H, W] views of both sides (aten/ops/volume.h),
// 2-D pooling as D = 1.
#include <ATen/core/Tensor.h>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace torchvulkan::pool {

// A window argument of `spatial` (2 or 3) dimensions as ATen reads it: one
// value for every dimension, one per dimension, or none for `fallback`; as
// (d, h, w), a 2-D one with `flat` for d.
std::array<int64_t, 3> per_dim(at::IntArrayRef value, int64_t spatial, int64_t flat,
                               std::array<int64_t, 3> fallback);

// Runs `kernel` ("<kernel>.<dtype>") over a pooling op's input side and
// output side with `spatial` dimensions ([C, spatial...] is one batch):
// forward, one invocation per output element, else one per grad_input
// element; `extra` follows the sides' words (and `indices`', max pooling's,
// written forward); `reads` as launch_volume's.
void launch(const std::string& kernel, bool forward, int64_t spatial, const at::Tensor& input_side,
            const at::Tensor& output_side, const std::vector<int64_t>& extra,
            const at::Tensor& indices = {}, std::span<const at::Tensor> reads = {});

// Max pooling's backward: each output's gradient added at its index in its
// plane of grad_input (a native scatter_add).
void scatter_backward(const at::Tensor& grad_output, const at::Tensor& indices,
                      const at::Tensor& grad_input, int64_t spatial);

}  // namespace torchvulkan::pool
