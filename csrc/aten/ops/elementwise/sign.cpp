// abs, sign and sgn (sign for real dtypes). Integers keep their dtype; the
// sign of a bool is itself.
#include <ATen/ops/sgn_meta.h>
#include <ATen/ops/sign_meta.h>
#include <torch/library.h>

#include "aten/launch.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;
using Iter = at::TensorIteratorBase;

// abs.out is not structured; ATen runs it over a same-dtype unary iterator.
at::Tensor& abs_out(const at::Tensor& x, at::Tensor& out) {
  auto iter = at::TensorIterator::unary_op(out, x);
  pointwise(iter, "unary", "abs");
  return out;
}

bool sign_kernel(Iter& iter) {
  return pointwise(iter, "unary", iter.common_dtype() == c10::kBool ? "identity" : "sign");
}

at::Tensor sign(const at::Tensor& x) {
  return structured_functional<m::structured_sign>(sign_kernel, x);
}
at::Tensor& sign_(at::Tensor& x) {
  return structured_inplace<m::structured_sign>(sign_kernel, x);
}
at::Tensor& sign_out(const at::Tensor& x, at::Tensor& out) {
  return structured_out<m::structured_sign>(sign_kernel, out, x);
}

// sgn is x / |x| for complex numbers and sign for real ones.
at::Tensor sgn(const at::Tensor& x) {
  return structured_functional<m::structured_sgn>(sign_kernel, x);
}
at::Tensor& sgn_(at::Tensor& x) {
  return structured_inplace<m::structured_sgn>(sign_kernel, x);
}
at::Tensor& sgn_out(const at::Tensor& x, at::Tensor& out) {
  return structured_out<m::structured_sgn>(sign_kernel, out, x);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("abs.out", abs_out);
  m.impl("sign", sign);
  m.impl("sign_", sign_);
  m.impl("sign.out", sign_out);
  m.impl("sgn", sgn);
  m.impl("sgn_", sgn_);
  m.impl("sgn.out", sgn_out);
}

}  // namespace torchvulkan
