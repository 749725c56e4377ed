// Binary _foreach_ ops: add, sub, mul, div, maximum/minimum (= clamp_min/max),
// pow and lerp with a scalar weight, in their List, Scalar, ScalarList and
// Tensor overloads, through shaders/elementwise/foreach_binary.comp. The
// second operand is a tensor list, a scalar (slot 3, per tensor for a
// ScalarList) or element 0 of a 0-dim tensor; alpha (or lerp's weight) is
// scalar slot 0.
#include <ATen/ops/_foreach_add_native.h>
#include <ATen/ops/_foreach_clamp_max_native.h>
#include <ATen/ops/_foreach_clamp_min_native.h>
#include <ATen/ops/_foreach_div_native.h>
#include <ATen/ops/_foreach_lerp_native.h>
#include <ATen/ops/_foreach_mul_native.h>
#include <ATen/ops/_foreach_pow_native.h>
#include <ATen/ops/_foreach_sub_native.h>
#include <ATen/ops/result_type.h>
#include <torch/library.h>

#include "aten/ops/foreach/foreach.h"

namespace torchvulkan::foreach {
namespace {

using at::native::can_use_fast_route;
using at::native::check_foreach_api_restrictions;

// Integer division and pow promote or raise on the CPU; those take the slow path.
bool float_only(std::string_view op) {
  return op == "div" || op == "pow" || op == "lerp";
}

// maximum and minimum have their NaN-free integer forms.
std::string binary_kernel(std::string_view op, const at::Tensor& like) {
  bool integral = !at::isFloatingType(like.scalar_type());
  if (integral && float_only(op)) return {};
  if (integral && (op == "maximum" || op == "minimum"))
    return kernel("foreach_binary", std::string(op) + "_int", like);
  return kernel("foreach_binary", op, like);
}

// out = op(self, other) with alpha in slot 0; false when the fast path does not apply.
bool on_list(std::string_view op, TensorList out, TensorList self, TensorList other,
             const c10::Scalar& alpha) {
  check_foreach_api_restrictions(self, other);
  if (!can_use_fast_route({self, other}, alpha)) return false;
  std::string k = binary_kernel(op, self[0]);
  if (k.empty()) return false;
  MultiLaunch launch;
  launch.scalars[0] = bits(alpha, self[0]);
  run(k, out, {MultiOperand::list(self), MultiOperand::list(other)}, launch);
  return true;
}

bool on_values(std::string_view op, TensorList out, TensorList self,
               at::ArrayRef<c10::Scalar> values, const c10::Scalar& alpha) {
  if (!can_use_fast_route({self}, values, float_only(op))) return false;
  std::string k = binary_kernel(op, self[0]);
  if (k.empty()) return false;
  MultiLaunch launch = values.size() == 1 ? MultiLaunch{} : per_tensor(3, values, self[0]);
  if (values.size() == 1) launch.scalars[3] = bits(values[0], self[0]);
  launch.scalars[0] = bits(alpha, self[0]);
  run(k, out, {MultiOperand::list(self), MultiOperand::value()}, launch);
  return true;
}

bool on_scalar(std::string_view op, TensorList out, TensorList self, const c10::Scalar& value) {
  check_foreach_api_restrictions(self);
  return on_values(op, out, self, value, 1);
}

bool on_scalar_list(std::string_view op, TensorList out, TensorList self,
                    at::ArrayRef<c10::Scalar> values) {
  check_foreach_api_restrictions(self, values);
  return on_values(op, out, self, values, 1);
}

// `other` is a 0-dim tensor: on the device its element is read in place (no
// sync); a host tensor's value travels as a scalar.
bool on_tensor(std::string_view op, TensorList out, TensorList self, const at::Tensor& other,
               const c10::Scalar& alpha) {
  check_foreach_api_restrictions(self);
  TORCH_CHECK(other.dim() == 0, "scalar tensor expected to be 0 dim but it has ", other.dim(),
              " dimensions and ", other.numel(), " elements.");
  if (other.device().is_cpu()) return on_values(op, out, self, other.item(), alpha);
  if (!can_use_fast_route({self}, at::ArrayRef<c10::Scalar>(), float_only(op)) ||
      other.device() != self[0].device() ||
      at::result_type(self[0], other) != self[0].scalar_type()) {
    return false;
  }
  std::string k = binary_kernel(op, self[0]);
  if (k.empty()) return false;
  MultiLaunch launch;
  launch.scalars[0] = bits(alpha, self[0]);
  run(k, out, {MultiOperand::list(self), MultiOperand::element(other.to(self[0].scalar_type()))},
      launch);
  return true;
}

bool on_list_plain(std::string_view op, TensorList out, TensorList self, TensorList other) {
  return on_list(op, out, self, other, 1);
}
bool on_tensor_plain(std::string_view op, TensorList out, TensorList self,
                     const at::Tensor& other) {
  return on_tensor(op, out, self, other, 1);
}

}  // namespace

// The functional and in-place forms of one overload: the fast path `fast`
// for `op`, else ATen's slow kernel `slow` (and `slow`_).
#define FOREACH_FORMS(name, op, fast, slow, params, ...)    \
  std::vector<at::Tensor> name params {                     \
    if (!self.empty()) {                                    \
      std::vector<at::Tensor> out = empty_like(self);       \
      if (fast(op, out, self, __VA_ARGS__)) return out;     \
    }                                                       \
    return at::native::slow(self, __VA_ARGS__);             \
  }                                                         \
  void name##_ params {                                     \
    if (self.empty() || !fast(op, self, self, __VA_ARGS__)) \
      at::native::slow##_(self, __VA_ARGS__);               \
  }

#define LIST_ALPHA (TensorList self, TensorList other, const c10::Scalar& alpha), other, alpha
#define LIST (TensorList self, TensorList other), other
#define SCALAR (TensorList self, const c10::Scalar& scalar), scalar
#define SCALARS (TensorList self, at::ArrayRef<c10::Scalar> scalars), scalars
#define TENSOR_ALPHA \
  (TensorList self, const at::Tensor& other, const c10::Scalar& alpha), other, alpha
#define TENSOR (TensorList self, const at::Tensor& other), other
#define FORMS(...) FOREACH_FORMS(__VA_ARGS__)

FORMS(add_list, "add", on_list, foreach_tensor_add_list_kernel_slow, LIST_ALPHA)
FORMS(add_scalar, "add", on_scalar, foreach_tensor_add_scalar_kernel_slow, SCALAR)
FORMS(add_scalars, "add", on_scalar_list, foreach_tensor_add_scalarlist_kernel_slow, SCALARS)
FORMS(add_tensor, "add", on_tensor, foreach_tensor_add_tensor_kernel_slow, TENSOR_ALPHA)
FORMS(sub_list, "sub", on_list, foreach_tensor_sub_list_kernel_slow, LIST_ALPHA)
FORMS(sub_scalar, "sub", on_scalar, foreach_tensor_sub_scalar_kernel_slow, SCALAR)
FORMS(sub_scalars, "sub", on_scalar_list, foreach_tensor_sub_scalarlist_kernel_slow, SCALARS)
FORMS(mul_list, "mul", on_list_plain, foreach_tensor_mul_list_kernel_slow, LIST)
FORMS(mul_scalar, "mul", on_scalar, foreach_tensor_mul_scalar_kernel_slow, SCALAR)
FORMS(mul_scalars, "mul", on_scalar_list, foreach_tensor_mul_scalarlist_kernel_slow, SCALARS)
FORMS(mul_tensor, "mul", on_tensor_plain, foreach_tensor_mul_tensor_kernel_slow, TENSOR)
FORMS(div_list, "div", on_list_plain, foreach_tensor_div_list_kernel_slow, LIST)
FORMS(div_scalar, "div", on_scalar, foreach_tensor_div_scalar_kernel_slow, SCALAR)
FORMS(div_scalars, "div", on_scalar_list, foreach_tensor_div_scalarlist_kernel_slow, SCALARS)
FORMS(div_tensor, "div", on_tensor_plain, foreach_tensor_div_tensor_kernel_slow, TENSOR)
// ATen's maximum.List is clamp_min.List (both are at::maximum per tensor).
FORMS(maximum_list, "maximum", on_list_plain, foreach_tensor_clamp_min_list_kernel_slow, LIST)
FORMS(minimum_list, "minimum", on_list_plain, foreach_tensor_clamp_max_list_kernel_slow, LIST)
FORMS(pow_list, "pow", on_list_plain, foreach_tensor_pow_list_kernel_slow, LIST)
FORMS(pow_scalar, "pow", on_scalar, foreach_tensor_pow_scalar_kernel_slow, SCALAR)
FORMS(pow_scalars, "pow", on_scalar_list, foreach_tensor_pow_scalarlist_kernel_slow, SCALARS)

// base ** exponents[i]: the base is the scalar operand.
std::vector<at::Tensor> scalar_pow(const c10::Scalar& base, TensorList exponent) {
  check_foreach_api_restrictions(exponent);
  if (can_use_fast_route({exponent}, base, true)) {
    std::string k = binary_kernel("pow", exponent[0]);
    if (!k.empty()) {
      std::vector<at::Tensor> out = empty_like(exponent);
      MultiLaunch launch;
      launch.scalars[3] = bits(base, exponent[0]);
      run(k, out, {MultiOperand::value(), MultiOperand::list(exponent)}, launch);
      return out;
    }
  }
  return at::native::foreach_scalar_pow_list_kernel_slow(base, exponent);
}

// lerp(self, end, weight): the weight is scalar slot 0, per tensor for a list.
namespace {
bool lerp_weights(std::string_view, TensorList out, TensorList self, TensorList end,
                  at::ArrayRef<c10::Scalar> weights) {
  check_foreach_api_restrictions(self, end);
  if (weights.size() != 1) check_foreach_api_restrictions(self, weights);
  if (!can_use_fast_route({self, end}, weights, true)) return false;
  std::string k = binary_kernel("lerp", self[0]);
  if (k.empty()) return false;
  MultiLaunch launch = weights.size() == 1 ? MultiLaunch{} : per_tensor(0, weights, self[0]);
  if (weights.size() == 1) launch.scalars[0] = bits(weights[0], self[0]);
  run(k, out, {MultiOperand::list(self), MultiOperand::list(end)}, launch);
  return true;
}
bool lerp_weight(std::string_view op, TensorList out, TensorList self, TensorList end,
                 const c10::Scalar& weight) {
  return lerp_weights(op, out, self, end, weight);
}
}  // namespace
FORMS(lerp_scalar, "lerp", lerp_weight, foreach_tensor_lerp_list_kernel_slow,
      (TensorList self, TensorList end, const c10::Scalar& weight), end, weight)
FORMS(lerp_scalars, "lerp", lerp_weights, foreach_tensor_lerp_scalarlist_kernel_slow,
      (TensorList self, TensorList end, at::ArrayRef<c10::Scalar> weight), end, weight)

#define REGISTER_FOREACH(op, overload, fn) \
  m.impl("_foreach_" #op overload, fn);    \
  m.impl("_foreach_" #op "_" overload, fn##_);

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  REGISTER_FOREACH(add, ".List", add_list)
  REGISTER_FOREACH(add, ".Scalar", add_scalar)
  REGISTER_FOREACH(add, ".ScalarList", add_scalars)
  REGISTER_FOREACH(add, ".Tensor", add_tensor)
  REGISTER_FOREACH(sub, ".List", sub_list)
  REGISTER_FOREACH(sub, ".Scalar", sub_scalar)
  REGISTER_FOREACH(sub, ".ScalarList", sub_scalars)
  REGISTER_FOREACH(mul, ".List", mul_list)
  REGISTER_FOREACH(mul, ".Scalar", mul_scalar)
  REGISTER_FOREACH(mul, ".ScalarList", mul_scalars)
  REGISTER_FOREACH(mul, ".Tensor", mul_tensor)
  REGISTER_FOREACH(div, ".List", div_list)
  REGISTER_FOREACH(div, ".Scalar", div_scalar)
  REGISTER_FOREACH(div, ".ScalarList", div_scalars)
  REGISTER_FOREACH(div, ".Tensor", div_tensor)
  REGISTER_FOREACH(maximum, ".List", maximum_list)
  REGISTER_FOREACH(minimum, ".List", minimum_list)
  REGISTER_FOREACH(clamp_min, ".List", maximum_list)
  REGISTER_FOREACH(clamp_max, ".List", minimum_list)
  REGISTER_FOREACH(pow, ".List", pow_list)
  REGISTER_FOREACH(pow, ".Scalar", pow_scalar)
  REGISTER_FOREACH(pow, ".ScalarList", pow_scalars)
  m.impl("_foreach_pow.ScalarAndTensor", scalar_pow);
  REGISTER_FOREACH(lerp, ".Scalar", lerp_scalar)
  REGISTER_FOREACH(lerp, ".ScalarList", lerp_scalars)
}

}  // namespace torchvulkan::foreach
