#pragma once
#include <ATen/core/Tensor.h>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>

namespace torchvulkan {

// Calls of the CPU fallback so far, per operator ("aten::add.Tensor": 3).
std::map<std::string, int64_t> fallback_counts();
void reset_fallback_counts();

// PyTorch hands a backend's convolutions to convolution_overrideable and
// convolution_backward_overrideable, whose default kernels throw
// NotImplementedError before the boxed fallback is reached (and calling them
// on CPU tensors throws too). These run the CPU's own convolution on copies,
// announced like any fallback, for the cases ops/conv/ has no kernel for.
at::Tensor convolution_on_cpu(const at::Tensor& input, const at::Tensor& weight,
                              const std::optional<at::Tensor>& bias, at::IntArrayRef stride,
                              at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed,
                              at::IntArrayRef output_padding, int64_t groups);
std::tuple<at::Tensor, at::Tensor, at::Tensor> convolution_backward_on_cpu(
    const at::Tensor& grad_output, const at::Tensor& input, const at::Tensor& weight,
    at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed,
    at::IntArrayRef output_padding, int64_t groups, std::array<bool, 3> output_mask);

}  // namespace torchvulkan
