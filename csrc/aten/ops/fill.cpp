// fill_ and zero_: one elementwise launch writing a constant.
#include <ATen/Dispatch_v2.h>
#include <ATen/TensorIterator.h>
#include <torch/library.h>

#include <bit>
#include <cstring>

#include "aten/launch.h"

namespace torchvulkan {
namespace {

// A value as the bits of its dtype's compute type in the shaders (float for
// 16-bit floats, int for narrow integers, ...).
template <typename T>
uint64_t compute_bits(T v) {
  if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<uint64_t>(v);
  } else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, c10::Half> ||
                       std::is_same_v<T, c10::BFloat16>) {
    return std::bit_cast<uint32_t>(static_cast<float>(v));
  } else {
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  }
}

uint64_t fill_bits(const c10::Scalar& value, c10::ScalarType type) {
  uint64_t bits = 0;
  AT_DISPATCH_V2(type, "fill_", AT_WRAP([&] {
    bits = compute_bits(value.to<scalar_t>());  // PyTorch's own (checked) conversion
  }), AT_EXPAND(AT_ALL_TYPES), c10::kBool, c10::kHalf, c10::kBFloat16);
  return bits;
}

at::Tensor& fill_(at::Tensor& self, const c10::Scalar& value) {
  if (self.numel() == 0) return self;
  auto iter = at::TensorIteratorConfig()
                  .add_output(self)
                  .resize_outputs(false)
                  .check_all_same_dtype(false)
                  .build();
  launch_elementwise(std::string("fill.") + dtype_name(self.scalar_type()), iter,
                     {fill_bits(value, self.scalar_type())});
  return self;
}

at::Tensor& fill_tensor_(at::Tensor& self, const at::Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ",
              value.dim(), " dimensions.");
  return fill_(self, value.item());
}

at::Tensor& zero_(at::Tensor& self) { return fill_(self, 0); }

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("fill_.Scalar", fill_);
  m.impl("fill_.Tensor", fill_tensor_);
  m.impl("zero_", zero_);
}

}  // namespace torchvulkan
