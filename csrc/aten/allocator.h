#pragma once
#include <c10/core/Allocator.h>

namespace torchvulkan {

// The caching device allocator's c10 face (registered for PrivateUse1).
c10::Allocator* device_allocator();
// Pinned host memory (tensor.pin_memory()).
c10::Allocator* pinned_allocator();
bool is_pinned(const void* ptr);

}  // namespace torchvulkan
