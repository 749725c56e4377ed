#include "aten/ops/index/kernels.h"

#include <ATen/ops/zeros.h>

#include <string>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan::index {
namespace {

uint64_t bits(int64_t v) {
  return static_cast<uint64_t>(v);
}

// The kernels' flags word (shaders/index/bits.glsl's index_in).
uint64_t flags(Negative negative, bool skip = false) {
  return (skip ? 1u : 0u) | (negative == Negative::from_end ? 2u : 0u);
}

std::string width_name(const char* family, const at::TensorIteratorBase& iter) {
  return std::string(family) + "." + std::to_string(iter.element_size(0));
}

}  // namespace

at::TensorIteratorConfig config() {
  at::TensorIteratorConfig c;
  c.set_check_mem_overlap(false).check_all_same_dtype(false).resize_outputs(false);
  return c;
}

void gather(const at::TensorIteratorBase& iter, int64_t stride, int64_t size,
            const at::Tensor& source, Negative negative) {
  launch_elementwise(width_name("index_gather", iter), iter,
                     {bits(stride), bits(size), flags(negative)}, {span_of(source, false)});
}

void scatter(const at::TensorIteratorBase& iter, int64_t stride, int64_t size,
             const at::Tensor& dest, Negative negative) {
  launch_elementwise(width_name("index_scatter", iter), iter,
                     {bits(stride), bits(size), flags(negative)}, {span_of(dest, true)});
}

void scatter_reduce(const at::TensorIteratorBase& iter, Reduce op, int64_t stride, int64_t size,
                    const at::Tensor& dest, std::optional<int64_t> skip, Negative negative) {
  static const char* names[] = {"sum", "prod", "amax", "amin"};
  c10::ScalarType type = iter.dtype(0);
  if (c10::elementSize(type) == 8) {
    const rt::Device& dev = device_for(dest);
    TORCH_CHECK(dev.caps().int64_atomics, "torchvulkan: ", dev.caps().name,
                " has no 64-bit atomics (shaderBufferInt64Atomics), needed to scatter-reduce ",
                type);
  }
  std::string name =
      std::string("scatter_reduce.") + names[static_cast<int>(op)] + "." + dtype_name(type);
  launch_elementwise(
      name, iter,
      {bits(stride), bits(size), flags(negative, skip.has_value()), bits(skip.value_or(0))},
      {span_of(dest, true)});
}

at::Tensor byte_offsets(at::IntArrayRef shape, const std::vector<at::Tensor>& indices,
                        at::IntArrayRef sizes, at::IntArrayRef strides) {
  at::Tensor offsets = at::zeros(shape, indices[0].options().dtype(at::kLong));
  for (size_t k = 0; k < indices.size(); ++k) {
    auto iter =
        config().add_output(offsets).add_const_input(offsets).add_const_input(indices[k]).build();
    launch_elementwise("index_offset", iter, {bits(strides[k]), bits(sizes[k])});
  }
  return offsets;
}

}  // namespace torchvulkan::index
