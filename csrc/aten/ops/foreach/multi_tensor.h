#pragma once
// Multi-tensor apply: one dispatch runs a kernel over many tensors (the
// tensors of a _foreach_ op or a fused optimizer), each workgroup taking a
// chunk of one tensor, instead of one dispatch per tensor (see
// shaders/common/multi_tensor.glsl for the table the kernel reads).
#include <ATen/core/Tensor.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace torchvulkan {

// One operand of a multi-tensor kernel, for every tensor of the launch.
struct MultiOperand {
  std::vector<at::Tensor>
      tensors;  // one per tensor of operand 0, or one shared by all; empty: none
  bool write = false;
  bool first_element = false;  // reads element 0 only (a 0-dim tensor: a step, a Tensor scalar)
  bool scalar = false;         // no tensor: the kernel reads scalar slot 3 instead

  static MultiOperand list(at::TensorList tensors, bool write = false) {
    return {std::vector<at::Tensor>(tensors.begin(), tensors.end()), write};
  }
  static MultiOperand element(const at::Tensor& tensor) { return {{tensor}, false, true}; }
  static MultiOperand value() { return {{}, false, false, true}; }
};

struct MultiLaunch {
  std::array<uint64_t, 6> scalars{};  // raw bits in the kernel's compute type (scalar_bits)
  // When set, scalar slot `per_tensor_slot` takes per_tensor[t] for tensor t.
  int per_tensor_slot = -1;
  std::vector<uint64_t> per_tensor;
  // The kernel has a vector path (FOR_EACH_CHUNK_ELEMENT_VECTORIZED): taken
  // when every tensor is 16-byte aligned.
  bool vector = false;
};

// Runs `kernel` over the tensors of operands[0] (their numel sets the work).
// Every list operand holds tensors of operand 0's sizes and strides, dense.
void multi_tensor_apply(std::string_view kernel, const std::vector<MultiOperand>& operands,
                        const MultiLaunch& launch = {});

// Elements one workgroup of `kernel` takes (a tensor of n elements spans
// ceil(n / chunk) workgroups), for kernels that keep per-workgroup results.
uint64_t multi_tensor_chunk(std::string_view kernel, const at::Tensor& like);

}  // namespace torchvulkan
