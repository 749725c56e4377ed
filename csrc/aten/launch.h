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
#include <vector>

#include "runtime/device.h"
#include "runtime/stream.h"

namespace torchvulkan {

// `extra` lists memory the kernel touches beyond the iterator's operands
// (a gather's whole source, a scatter's whole destination), for hazard tracking.
void launch_elementwise(std::string_view kernel, const at::TensorIteratorBase& iter,
                        std::array<uint64_t, 4> scalars = {},
                        const std::vector<rt::Access>& extra = {});

// Runs `kernel` over `invocations` invocations with `params` (sizes, strides,
// operand addresses: address_of) as its parameter block, whose address is
// the only push constant; for kernels that declare their parameters as a
// buffer reference of int64 words (grid_sample, distance, the volume ops).
void launch_with_params(rt::Device& dev, const std::string& kernel,
                        const std::vector<int64_t>& params, uint64_t invocations,
                        const std::vector<rt::Access>& accesses);

// A scalar as the raw bits of `type`'s compute type in the shaders (float for
// 16-bit floats, int for narrow integers, ...), converted with PyTorch's
// checked Scalar::to<T>, so out-of-range values raise as on the CPU.
uint64_t scalar_bits(const c10::Scalar& value, c10::ScalarType type);

// Launches "<family>.<op>.<dtype of input 1>" over `iter` when the output has
// the dtype the family writes (the inputs' dtype, or bool when bool_output);
// returns false, launching nothing, otherwise (see structured.h).
bool pointwise(const at::TensorIteratorBase& iter, std::string_view family, std::string_view op,
               std::array<uint64_t, 4> scalars = {}, bool bool_output = false);

// Short dtype names used in kernel variant names ("f32", "bf16", "b8", ...).
const char* dtype_name(c10::ScalarType type);

}  // namespace torchvulkan
