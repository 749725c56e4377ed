// Bitwise and/or/xor/not (bool: logical) and the shifts, including the
// __lshift__/__rshift__ operator overloads, which have kernels of their own.
#include <ATen/ScalarOps.h>
#include <ATen/ops/bitwise_and_meta.h>
#include <ATen/ops/bitwise_left_shift_meta.h>
#include <ATen/ops/bitwise_not_meta.h>
#include <ATen/ops/bitwise_or_meta.h>
#include <ATen/ops/bitwise_right_shift_meta.h>
#include <ATen/ops/bitwise_xor_meta.h>
#include <torch/library.h>

#include "aten/ops/elementwise/forms.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;
using Iter = at::TensorIteratorBase;

bool and_kernel(Iter& iter) {
  return pointwise(iter, "binary", "bitwise_and");
}
bool or_kernel(Iter& iter) {
  return pointwise(iter, "binary", "bitwise_or");
}
bool xor_kernel(Iter& iter) {
  return pointwise(iter, "binary", "bitwise_xor");
}
bool lshift_kernel(Iter& iter) {
  return pointwise(iter, "binary", "lshift");
}
bool rshift_kernel(Iter& iter) {
  return pointwise(iter, "binary", "rshift");
}
bool not_kernel(Iter& iter) {
  return pointwise(iter, "scalar", "bitwise_not");
}

TV_BINARY_FORMS(bitwise_and, structured_bitwise_and_Tensor, and_kernel)
TV_BINARY_FORMS(bitwise_or, structured_bitwise_or_Tensor, or_kernel)
TV_BINARY_FORMS(bitwise_xor, structured_bitwise_xor_Tensor, xor_kernel)
TV_BINARY_FORMS(lshift, structured_bitwise_left_shift_Tensor, lshift_kernel)
TV_BINARY_FORMS(rshift, structured_bitwise_right_shift_Tensor, rshift_kernel)

at::Tensor bitwise_not(const at::Tensor& x) {
  return structured_functional<m::structured_bitwise_not>(not_kernel, x);
}
at::Tensor& bitwise_not_(at::Tensor& x) {
  return structured_inplace<m::structured_bitwise_not>(not_kernel, x);
}
at::Tensor& bitwise_not_out(const at::Tensor& x, at::Tensor& out) {
  return structured_out<m::structured_bitwise_not>(not_kernel, out, x);
}

// x << s and x <<= s with a scalar s: the scalar joins as a host scalar.
at::Tensor lshift_scalar(const at::Tensor& x, const c10::Scalar& s) {
  return lshift(x, at::native::wrapped_scalar_tensor(s));
}
at::Tensor& lshift_scalar_(at::Tensor& x, const c10::Scalar& s) {
  return lshift_(x, at::native::wrapped_scalar_tensor(s));
}
at::Tensor rshift_scalar(const at::Tensor& x, const c10::Scalar& s) {
  return rshift(x, at::native::wrapped_scalar_tensor(s));
}
at::Tensor& rshift_scalar_(at::Tensor& x, const c10::Scalar& s) {
  return rshift_(x, at::native::wrapped_scalar_tensor(s));
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("bitwise_and.Tensor", bitwise_and);
  m.impl("bitwise_and_.Tensor", bitwise_and_);
  m.impl("bitwise_and.Tensor_out", bitwise_and_out);
  m.impl("bitwise_or.Tensor", bitwise_or);
  m.impl("bitwise_or_.Tensor", bitwise_or_);
  m.impl("bitwise_or.Tensor_out", bitwise_or_out);
  m.impl("bitwise_xor.Tensor", bitwise_xor);
  m.impl("bitwise_xor_.Tensor", bitwise_xor_);
  m.impl("bitwise_xor.Tensor_out", bitwise_xor_out);
  m.impl("bitwise_not", bitwise_not);
  m.impl("bitwise_not_", bitwise_not_);
  m.impl("bitwise_not.out", bitwise_not_out);
  m.impl("bitwise_left_shift.Tensor", lshift);
  m.impl("bitwise_left_shift_.Tensor", lshift_);
  m.impl("bitwise_left_shift.Tensor_out", lshift_out);
  m.impl("bitwise_right_shift.Tensor", rshift);
  m.impl("bitwise_right_shift_.Tensor", rshift_);
  m.impl("bitwise_right_shift.Tensor_out", rshift_out);
  m.impl("__lshift__.Tensor", lshift);
  m.impl("__lshift__.Scalar", lshift_scalar);
  m.impl("__ilshift__.Tensor", lshift_);
  m.impl("__ilshift__.Scalar", lshift_scalar_);
  m.impl("__rshift__.Tensor", rshift);
  m.impl("__rshift__.Scalar", rshift_scalar);
  m.impl("__irshift__.Tensor", rshift_);
  m.impl("__irshift__.Scalar", rshift_scalar_);
}

}  // namespace torchvulkan
