#pragma once
// What the interpolation, padding and pooling kernels share: a tensor [N, C,
// spatial...] with one to three spatial dimensions seen as [N, C, D, H, W],
// and one launch over the elements of one side, gathering from the other.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace torchvulkan {

// [N, C, spatial...] as [N, C, D, H, W] (size-1 dimensions in front).
at::Tensor five_d(at::Tensor t);

// One invocation per element of the output side (forward: it reads the
// input side) or of the input side (backward: it reads the output side,
// grad_output, and writes grad_input) runs `kernel`
// ("<kernel>.<dtype of input_side>"), which reads int64 parameter words:
// the input side's and the output side's addresses, N * C, C, the input
// side's D, H, W, the output side's, each side's five strides (elements)
// (shaders/common/volume.glsl reads these), then, where `indices` is given
// (max pooling's int64 companion of the output side, written forward), its
// address and five strides, then `extra`. `reads`: the tensors whose
// addresses `extra` passes, which the kernel reads (declared, so that the
// stream orders the launch after their writers).
void launch_volume(const std::string& kernel, bool forward, const at::Tensor& input_side,
                   const at::Tensor& output_side, const std::vector<int64_t>& extra,
                   const at::Tensor& indices = {}, std::span<const at::Tensor> reads = {});

}  // namespace torchvulkan
