// fill_ and zero_: one elementwise launch writing a constant.
#include <ATen/TensorIterator.h>
#include <torch/library.h>

#include "aten/launch.h"

namespace torchvulkan {
namespace {

at::Tensor& fill_(at::Tensor& self, const c10::Scalar& value) {
  if (self.numel() == 0) return self;
  auto iter = at::TensorIteratorConfig()
                  .add_output(self)
                  .resize_outputs(false)
                  .check_all_same_dtype(false)
                  .build();
  launch_elementwise(std::string("fill.") + dtype_name(self.scalar_type()), iter,
                     {scalar_bits(value, self.scalar_type())});
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
