// Arithmetic: add, sub, mul, div, maximum, minimum.
#include <ATen/ops/add_meta.h>
#include <ATen/ops/div_meta.h>
#include <ATen/ops/maximum_meta.h>
#include <ATen/ops/minimum_meta.h>
#include <ATen/ops/mul_meta.h>
#include <ATen/ops/sub_meta.h>
#include <torch/library.h>

#include "aten/launch.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;
using Iter = at::TensorIteratorBase;

bool is_bool(const Iter& iter) { return iter.common_dtype() == c10::ScalarType::Bool; }

// out = a + alpha * b (bool: a or (alpha and b)).
auto add_kernel(const c10::Scalar& alpha) {
  return [&alpha](Iter& iter) {
    return pointwise(iter, "binary", is_bool(iter) ? "logical_or" : "add", {scalar_bits(alpha, iter.common_dtype())});
  };
}

auto sub_kernel(const c10::Scalar& alpha) {
  return [&alpha](Iter& iter) { return pointwise(iter, "binary", "sub", {scalar_bits(alpha, iter.common_dtype())}); };
}

bool mul_kernel(Iter& iter) { return pointwise(iter, "binary", is_bool(iter) ? "logical_and" : "mul"); }
bool div_kernel(Iter& iter) { return pointwise(iter, "binary", "div"); }

bool maximum_kernel(Iter& iter) {
  if (is_bool(iter)) return pointwise(iter, "binary", "logical_or", {1});
  return pointwise(iter, "binary", c10::isFloatingType(iter.common_dtype()) ? "maximum" : "maximum_int");
}
bool minimum_kernel(Iter& iter) {
  if (is_bool(iter)) return pointwise(iter, "binary", "logical_and");
  return pointwise(iter, "binary", c10::isFloatingType(iter.common_dtype()) ? "minimum" : "minimum_int");
}

at::Tensor add(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha) {
  return structured_functional<m::structured_add_Tensor>(add_kernel(alpha), a, b, alpha);
}
at::Tensor& add_(at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha) {
  return structured_inplace<m::structured_add_Tensor>(add_kernel(alpha), a, b, alpha);
}
at::Tensor& add_out(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha, at::Tensor& out) {
  return structured_out<m::structured_add_Tensor>(add_kernel(alpha), out, a, b, alpha);
}

at::Tensor sub(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha) {
  return structured_functional<m::structured_sub_Tensor>(sub_kernel(alpha), a, b, alpha);
}
at::Tensor& sub_(at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha) {
  return structured_inplace<m::structured_sub_Tensor>(sub_kernel(alpha), a, b, alpha);
}
at::Tensor& sub_out(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha, at::Tensor& out) {
  return structured_out<m::structured_sub_Tensor>(sub_kernel(alpha), out, a, b, alpha);
}

// Binary ops without parameters: functional, in-place and out= from one kernel.
#define BINARY_FORMS(name, meta, kernel)                                                 \
  at::Tensor name(const at::Tensor& a, const at::Tensor& b) {                            \
    return structured_functional<m::meta>(kernel, a, b);                                 \
  }                                                                                      \
  at::Tensor& name##_(at::Tensor& a, const at::Tensor& b) {                              \
    return structured_inplace<m::meta>(kernel, a, b);                                    \
  }                                                                                      \
  at::Tensor& name##_out(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {    \
    return structured_out<m::meta>(kernel, out, a, b);                                   \
  }

BINARY_FORMS(mul, structured_mul_Tensor, mul_kernel)
BINARY_FORMS(div, structured_div_Tensor, div_kernel)
BINARY_FORMS(maximum, structured_maximum, maximum_kernel)
BINARY_FORMS(minimum, structured_minimum, minimum_kernel)

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("add.Tensor", add);
  m.impl("add_.Tensor", add_);
  m.impl("add.out", add_out);
  m.impl("sub.Tensor", sub);
  m.impl("sub_.Tensor", sub_);
  m.impl("sub.out", sub_out);
  m.impl("mul.Tensor", mul);
  m.impl("mul_.Tensor", mul_);
  m.impl("mul.out", mul_out);
  m.impl("div.Tensor", div);
  m.impl("div_.Tensor", div_);
  m.impl("div.out", div_out);
  m.impl("maximum", maximum);
  m.impl("maximum.out", maximum_out);
  m.impl("minimum", minimum);
  m.impl("minimum.out", minimum_out);
}

}  // namespace torchvulkan
