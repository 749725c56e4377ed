#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace torchvulkan {

// Calls of the CPU fallback so far, per operator ("aten::add.Tensor": 3).
std::map<std::string, int64_t> fallback_counts();
void reset_fallback_counts();

}  // namespace torchvulkan
