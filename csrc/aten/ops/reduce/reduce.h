#pragma once
#include <ATen/core/Tensor.h>

#include <string_view>

namespace torchvulkan {

// out = op over `dims` of self ("sum", "mean", "prod", "amax", "amin", "any",
// "all"); an empty `dims` reduces everything. `out` is already shaped, with
// the reduced dims kept as 1 or removed, and has the result dtype.
void reduce(const at::Tensor& self, at::OptionalIntArrayRef dims, const at::Tensor& out, std::string_view op);

}  // namespace torchvulkan
