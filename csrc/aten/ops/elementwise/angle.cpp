// angle of real numbers: 0 or pi (complex tensors, whose phase it is, do not
// live on this device). Not structured: ATen runs it over a unary float
// iterator, so integer and bool inputs compute in the default float dtype.
#include <torch/library.h>

#include "aten/launch.h"
#include "aten/ops/elementwise/forms.h"

namespace torchvulkan {
namespace {

at::Tensor angle(const at::Tensor& x) {
  at::Tensor out;
  auto iter = at::TensorIterator::unary_float_op(out, float_input(x));
  pointwise(iter, "unary", "angle");
  return iter.output();
}

at::Tensor& angle_out(const at::Tensor& x, at::Tensor& out) {
  auto iter = at::TensorIterator::unary_float_op(out, float_input(x));
  if (!pointwise(iter, "unary", "angle"))
    out.copy_(at::angle(x));  // an out= of another float dtype
  return out;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("angle", angle);
  m.impl("angle.out", angle_out);
}

}  // namespace torchvulkan
