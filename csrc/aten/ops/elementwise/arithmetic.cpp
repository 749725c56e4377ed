// Arithmetic: add, sub, rsub, mul, div (all rounding modes), floor_divide,
// remainder, fmod.
#include <ATen/ScalarOps.h>
#include <ATen/ops/add_meta.h>
#include <ATen/ops/div_meta.h>
#include <ATen/ops/fmod_meta.h>
#include <ATen/ops/mul_meta.h>
#include <ATen/ops/remainder_meta.h>
#include <ATen/ops/sub_meta.h>
#include <torch/library.h>

#include <optional>

#include "aten/ops/elementwise/forms.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;
using Iter = at::TensorIteratorBase;
using Mode = std::optional<c10::string_view>;

bool is_bool(const Iter& iter) {
  return iter.common_dtype() == c10::ScalarType::Bool;
}

// Integer division by zero raises on the CPU; a shader cannot, so integer
// divisors are checked on the host before the launch (floats give inf/nan).
void check_divisor(const Iter& iter) {
  if (!c10::isIntegralType(iter.common_dtype(), /*includeBool=*/false) || iter.numel() == 0) return;
  TORCH_CHECK(!iter.tensor(2).cpu().eq(0).any().item<bool>(), "ZeroDivisionError");
}

// out = a + alpha * b (bool: a or (alpha and b)).
auto add_kernel(const c10::Scalar& alpha) {
  return [&alpha](Iter& iter) {
    return pointwise(iter, "binary", is_bool(iter) ? "logical_or" : "add",
                     {opmath_bits(alpha, iter.common_dtype())});
  };
}

auto sub_kernel(const c10::Scalar& alpha) {
  return [&alpha](Iter& iter) {
    return pointwise(iter, "binary", "sub", {opmath_bits(alpha, iter.common_dtype())});
  };
}

bool mul_kernel(Iter& iter) {
  return pointwise(iter, "binary", is_bool(iter) ? "logical_and" : "mul");
}
bool div_kernel(Iter& iter) {
  return pointwise(iter, "binary", "div");
}

// An integer op that divides by input 2.
bool dividing(Iter& iter, const char* op) {
  check_divisor(iter);
  return pointwise(iter, "binary", op);
}
bool div_floor_kernel(Iter& iter) {
  return dividing(iter, "div_floor");
}
bool remainder_kernel(Iter& iter) {
  return dividing(iter, "remainder");
}
bool fmod_kernel(Iter& iter) {
  return dividing(iter, "fmod");
}

auto div_mode_kernel(Mode mode) {
  return [mode](Iter& iter) {
    if (!mode) return div_kernel(iter);
    return *mode == "trunc" ? dividing(iter, "div_trunc") : div_floor_kernel(iter);
  };
}

at::Tensor add(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha) {
  return structured_functional<m::structured_add_Tensor>(add_kernel(alpha), a, b, alpha);
}
at::Tensor& add_(at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha) {
  return structured_inplace<m::structured_add_Tensor>(add_kernel(alpha), a, b, alpha);
}
at::Tensor& add_out(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha,
                    at::Tensor& out) {
  return structured_out<m::structured_add_Tensor>(add_kernel(alpha), out, a, b, alpha);
}

at::Tensor sub(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha) {
  return structured_functional<m::structured_sub_Tensor>(sub_kernel(alpha), a, b, alpha);
}
at::Tensor& sub_(at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha) {
  return structured_inplace<m::structured_sub_Tensor>(sub_kernel(alpha), a, b, alpha);
}
at::Tensor& sub_out(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha,
                    at::Tensor& out) {
  return structured_out<m::structured_sub_Tensor>(sub_kernel(alpha), out, a, b, alpha);
}

// rsub(a, b, alpha) = b - alpha * a.
at::Tensor rsub(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha) {
  return structured_functional<m::structured_sub_Tensor>(sub_kernel(alpha), b, a, alpha);
}

at::Tensor div_mode(const at::Tensor& a, const at::Tensor& b, Mode mode) {
  return structured_functional<m::structured_div_Tensor_mode>(div_mode_kernel(mode), a, b, mode);
}
at::Tensor& div_mode_(at::Tensor& a, const at::Tensor& b, Mode mode) {
  return structured_inplace<m::structured_div_Tensor_mode>(div_mode_kernel(mode), a, b, mode);
}
at::Tensor& div_mode_out(const at::Tensor& a, const at::Tensor& b, Mode mode, at::Tensor& out) {
  return structured_out<m::structured_div_Tensor_mode>(div_mode_kernel(mode), out, a, b, mode);
}

TV_BINARY_FORMS(mul, structured_mul_Tensor, mul_kernel)
TV_BINARY_FORMS(div, structured_div_Tensor, div_kernel)
TV_BINARY_FORMS(remainder, structured_remainder_Tensor, remainder_kernel)
TV_BINARY_FORMS(fmod, structured_fmod_Tensor, fmod_kernel)

// floor_divide is not structured, but its iterator is div(rounding_mode="floor")'s.
at::Tensor floor_divide(const at::Tensor& a, const at::Tensor& b) {
  return div_mode(a, b, "floor");
}
at::Tensor& floor_divide_(at::Tensor& a, const at::Tensor& b) {
  return div_mode_(a, b, "floor");
}
at::Tensor& floor_divide_out(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
  return div_mode_out(a, b, "floor", out);
}

at::Tensor remainder_scalar_tensor(const c10::Scalar& a, const at::Tensor& b) {
  return structured_functional<m::structured_remainder_Tensor>(
      remainder_kernel, at::native::wrapped_scalar_tensor(a), b);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("add.Tensor", add);
  m.impl("add_.Tensor", add_);
  m.impl("add.out", add_out);
  m.impl("sub.Tensor", sub);
  m.impl("sub_.Tensor", sub_);
  m.impl("sub.out", sub_out);
  m.impl("rsub.Tensor", rsub);
  m.impl("mul.Tensor", mul);
  m.impl("mul_.Tensor", mul_);
  m.impl("mul.out", mul_out);
  m.impl("div.Tensor", div);
  m.impl("div_.Tensor", div_);
  m.impl("div.out", div_out);
  m.impl("div.Tensor_mode", div_mode);
  m.impl("div_.Tensor_mode", div_mode_);
  m.impl("div.out_mode", div_mode_out);
  m.impl("floor_divide", floor_divide);
  m.impl("floor_divide_.Tensor", floor_divide_);
  m.impl("floor_divide.out", floor_divide_out);
  m.impl("remainder.Tensor", remainder);
  m.impl("remainder_.Tensor", remainder_);
  m.impl("remainder.Tensor_out", remainder_out);
  m.impl("remainder.Scalar_Tensor", remainder_scalar_tensor);
  m.impl("fmod.Tensor", fmod);
  m.impl("fmod_.Tensor", fmod_);
  m.impl("fmod.Tensor_out", fmod_out);
}

}  // namespace torchvulkan
