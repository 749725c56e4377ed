#pragma once
#include <ATen/core/Tensor.h>

namespace torchvulkan {

// dst.copy_(src) where either side is a vulkan tensor: any strides, offsets
// and dtype conversion, host <-> device and device <-> device.
void copy(const at::Tensor& dst, const at::Tensor& src, bool non_blocking);

}  // namespace torchvulkan
