// _add_relu(self, other, alpha) = relu(self + alpha * other), the fused op
// that TorchScript's and FX's fusion passes emit. As ATen's add_clamp, the
// sum is clamped to [0, the largest value of self's dtype]; the dtypes are
// the CPU's: int8 to int64, float32 and float64.
#include <ATen/Dispatch_v2.h>
#include <ATen/ScalarOps.h>
#include <torch/library.h>

#include <limits>

#include "aten/ops/elementwise/forms.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

// add's iterator without add's alpha check: the CPU converts alpha to the
// dtype as it is (an integer sum steps by 1 for alpha 1.5).
struct AddRelu : at::TensorIteratorBase {
  void meta(const at::Tensor& self, const at::Tensor& other) {
    build_borrowing_binary_op(maybe_get_output(), self, other);
  }
};

bool has_kernel(c10::ScalarType type) {
  return type == at::kChar || type == at::kShort || type == at::kInt || type == at::kLong ||
         type == at::kFloat || type == at::kDouble;
}

// The upper clamp, from self's dtype even where other's promotes the sum.
c10::Scalar upper_bound(const at::Tensor& self) {
  c10::ScalarType type = self.scalar_type();
  TORCH_CHECK(has_kernel(type), "Unsupported datatype for add_relu: ", type);
  c10::Scalar bound;
  AT_DISPATCH_V2(type, "add_relu", AT_WRAP([&] { bound = std::numeric_limits<scalar_t>::max(); }),
                 AT_EXPAND(AT_FLOATING_TYPES), at::kChar, at::kShort, at::kInt, at::kLong);
  return bound;
}

auto add_relu_kernel(const c10::Scalar& alpha, const at::Tensor& self) {
  return [alpha, bound = upper_bound(self)](at::TensorIteratorBase& iter) {
    c10::ScalarType type = iter.common_dtype();
    TORCH_CHECK(has_kernel(type), "\"add_clamp_cpu\" not implemented for '", type, "'");
    return pointwise(iter, "binary", "add_relu",
                     {scalar_bits(alpha, type), scalar_bits(bound, type)});
  };
}

at::Tensor add_relu(const at::Tensor& self, const at::Tensor& other, const c10::Scalar& alpha) {
  return structured_functional<AddRelu>(add_relu_kernel(alpha, self), self, other);
}
at::Tensor& add_relu_(at::Tensor& self, const at::Tensor& other, const c10::Scalar& alpha) {
  return structured_inplace<AddRelu>(add_relu_kernel(alpha, self), self, other);
}
at::Tensor& add_relu_out(const at::Tensor& self, const at::Tensor& other, const c10::Scalar& alpha,
                         at::Tensor& out) {
  return structured_out<AddRelu>(add_relu_kernel(alpha, self), out, self, other);
}

at::Tensor add_relu_scalar(const at::Tensor& self, const c10::Scalar& other,
                           const c10::Scalar& alpha) {
  return add_relu(self, at::native::wrapped_scalar_tensor(other), alpha);
}
at::Tensor& add_relu_scalar_(at::Tensor& self, const c10::Scalar& other, const c10::Scalar& alpha) {
  return add_relu_(self, at::native::wrapped_scalar_tensor(other), alpha);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_add_relu.Tensor", add_relu);
  m.impl("_add_relu_.Tensor", add_relu_);
  m.impl("_add_relu.out", add_relu_out);
  m.impl("_add_relu.Scalar", add_relu_scalar);
  m.impl("_add_relu_.Scalar", add_relu_scalar_);
}

}  // namespace torchvulkan
