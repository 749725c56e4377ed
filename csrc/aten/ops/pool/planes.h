#pragma once
// What the pooling kernels share: their view of a tensor as N x C planes of
// H x W, ATen's rules for (h, w) arguments, and one launch over the planes.
#include <ATen/core/Tensor.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace torchvulkan::pool {

// (h, w) of a pooling argument as ATen reads it: one value for both, or
// empty for `fallback` (the stride defaults to the kernel).
std::array<int64_t, 2> pair(at::IntArrayRef value, std::array<int64_t, 2> fallback);

// A 3-D tensor [C, H, W] as one batch [1, C, H, W]; a 4-D one as it is.
at::Tensor batched(const at::Tensor& t);

struct PlaneOperand {
  at::Tensor tensor;  // [N, C, H, W], or [C, H, W] as one batch
  bool write;
};

// One invocation per element of operands[per_element_of] runs `kernel`
// (shaders/pool/), which reads int64 parameter words: the operands'
// addresses, N * C, C, H, W (of operands[0], the input side), out H, out W
// (of operands[1], the output side), each operand's n, c, h, w strides (in
// elements), then `extra`.
void launch_planes(const std::string& kernel, const std::vector<PlaneOperand>& operands,
                   size_t per_element_of, std::initializer_list<int64_t> extra);

}  // namespace torchvulkan::pool
