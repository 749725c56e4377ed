#pragma once
#include <ATen/core/Tensor.h>
#include <c10/core/Storage.h>

namespace torchvulkan {

// Grows or shrinks a vulkan storage to `bytes`, keeping its leading contents.
void resize_storage_bytes(const c10::Storage& storage, size_t bytes);

// Gives a tensor `size`/`stride` (contiguous when stride is empty) and grows
// its storage if the new shape needs more.
void resize_tensor(at::TensorImpl* self, at::IntArrayRef size, at::OptionalIntArrayRef stride);

}  // namespace torchvulkan
