// frexp: x = mantissa * 2^exponent, |mantissa| in [0.5, 1), one pass
// writing both (shaders/elementwise/frexp.comp), with the CPU's checks;
// torch.frexp's functional form is ATen's composite over this one.
#include <ATen/TensorIterator.h>
#include <torch/library.h>

#include "aten/launch.h"

namespace torchvulkan {
namespace {

std::tuple<at::Tensor&, at::Tensor&> frexp_out(const at::Tensor& self, at::Tensor& mantissa,
                                               at::Tensor& exponent) {
  TORCH_CHECK(at::isFloatingType(self.scalar_type()),
              "torch.frexp() only supports floating-point dtypes");
  TORCH_CHECK(mantissa.dtype() == self.dtype(), "torch.frexp() expects mantissa to have dtype ",
              self.dtype(), " but got ", mantissa.dtype());
  TORCH_CHECK(exponent.dtype() == at::kInt,
              "torch.frexp() expects exponent to have int dtype but got ", exponent.dtype());
  auto iter = at::TensorIteratorConfig()
                  .add_output(mantissa)
                  .add_output(exponent)
                  .add_const_input(self)
                  .check_all_same_dtype(false)
                  .set_check_mem_overlap(true)
                  .build();
  if (iter.numel() > 0)
    launch_elementwise(std::string("frexp.split.") + dtype_name(self.scalar_type()), iter);
  return {mantissa, exponent};
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("frexp.Tensor_out", frexp_out);
}

}  // namespace torchvulkan
