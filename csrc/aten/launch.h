#pragma once
// One launch of an elementwise kernel over an at::TensorIterator: ATen does
// the broadcasting, type checks and dimension coalescing; this passes the
// resulting shape and byte strides to a shader that follows
// shaders/common/strided.glsl.
#include <ATen/TensorIterator.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace torchvulkan {

void launch_elementwise(std::string_view kernel, const at::TensorIteratorBase& iter,
                        std::array<uint64_t, 4> scalars = {});

// Short dtype names used in kernel variant names ("f32", "bf16", "b8", ...).
const char* dtype_name(c10::ScalarType type);

}  // namespace torchvulkan
