// Unary _foreach_ ops through shaders/elementwise/foreach_unary.comp (the ops
// of unary.comp), and the scalar-bound clamps (= maximum/minimum with a
// Scalar or ScalarList) through foreach_scalar.comp, the bound in slot 0.
#include <ATen/ops/_foreach_abs_native.h>
#include <ATen/ops/_foreach_acos_native.h>
#include <ATen/ops/_foreach_asin_native.h>
#include <ATen/ops/_foreach_atan_native.h>
#include <ATen/ops/_foreach_ceil_native.h>
#include <ATen/ops/_foreach_clamp_max_native.h>
#include <ATen/ops/_foreach_clamp_min_native.h>
#include <ATen/ops/_foreach_cos_native.h>
#include <ATen/ops/_foreach_cosh_native.h>
#include <ATen/ops/_foreach_erf_native.h>
#include <ATen/ops/_foreach_erfc_native.h>
#include <ATen/ops/_foreach_exp_native.h>
#include <ATen/ops/_foreach_expm1_native.h>
#include <ATen/ops/_foreach_floor_native.h>
#include <ATen/ops/_foreach_frac_native.h>
#include <ATen/ops/_foreach_lgamma_native.h>
#include <ATen/ops/_foreach_log10_native.h>
#include <ATen/ops/_foreach_log1p_native.h>
#include <ATen/ops/_foreach_log2_native.h>
#include <ATen/ops/_foreach_log_native.h>
#include <ATen/ops/_foreach_neg_native.h>
#include <ATen/ops/_foreach_reciprocal_native.h>
#include <ATen/ops/_foreach_round_native.h>
#include <ATen/ops/_foreach_rsqrt_native.h>
#include <ATen/ops/_foreach_sigmoid_native.h>
#include <ATen/ops/_foreach_sign_native.h>
#include <ATen/ops/_foreach_sin_native.h>
#include <ATen/ops/_foreach_sinh_native.h>
#include <ATen/ops/_foreach_sqrt_native.h>
#include <ATen/ops/_foreach_tan_native.h>
#include <ATen/ops/_foreach_tanh_native.h>
#include <ATen/ops/_foreach_trunc_native.h>
#include <torch/library.h>

#include "aten/ops/foreach/foreach.h"

namespace torchvulkan::foreach {
namespace {

using at::native::can_use_fast_route;
using at::native::check_foreach_api_restrictions;

// Ops with float variants only leave integer inputs (which promote) to the slow path.
bool unary(const char* op, TensorList out, TensorList self) {
  check_foreach_api_restrictions(self);
  if (!can_use_fast_route({self})) return false;
  std::string k = kernel("foreach_unary", op, self[0]);
  if (k.empty()) return false;
  run(k, out, {MultiOperand::list(self)});
  return true;
}

bool bound(const char* op, TensorList out, TensorList self, at::ArrayRef<c10::Scalar> bounds) {
  if (!can_use_fast_route({self}, bounds)) return false;
  std::string k = kernel("foreach_scalar", op, self[0]);
  if (k.empty()) return false;
  MultiLaunch launch = bounds.size() == 1 ? MultiLaunch{} : per_tensor(0, bounds, self[0]);
  if (bounds.size() == 1) launch.scalars[0] = bits(bounds[0], self[0]);
  run(k, out, {MultiOperand::list(self)}, launch);
  return true;
}

bool bound_scalar(const char* op, TensorList out, TensorList self, const c10::Scalar& value) {
  check_foreach_api_restrictions(self);
  return bound(op, out, self, value);
}

bool bound_scalars(const char* op, TensorList out, TensorList self,
                   at::ArrayRef<c10::Scalar> values) {
  check_foreach_api_restrictions(self, values);
  return bound(op, out, self, values);
}

}  // namespace

#define UNARY(op)                                                                               \
  std::vector<at::Tensor> op(TensorList self) {                                                 \
    if (!self.empty()) {                                                                        \
      std::vector<at::Tensor> out = empty_like(self);                                           \
      if (unary(#op, out, self)) return out;                                                    \
    }                                                                                           \
    return at::native::foreach_tensor_##op##_slow(self);                                        \
  }                                                                                             \
  void op##_(TensorList self) {                                                                 \
    if (self.empty() || !unary(#op, self, self)) at::native::foreach_tensor_##op##_slow_(self); \
  }

#define UNARY_OPS(_)                                                                             \
  _(neg)                                                                                         \
  _(abs) _(sign) _(reciprocal) _(sqrt) _(rsqrt) _(exp) _(expm1) _(log) _(log2) _(log10) _(log1p) \
      _(sin) _(cos) _(tan) _(asin) _(acos) _(atan) _(sinh) _(cosh) _(tanh) _(sigmoid) _(erf)     \
          _(erfc) _(lgamma) _(floor) _(ceil) _(trunc) _(round) _(frac)

UNARY_OPS(UNARY)

#define BOUND(name, op, test, slow, param)                                              \
  std::vector<at::Tensor> name(TensorList self, param value) {                          \
    if (!self.empty()) {                                                                \
      std::vector<at::Tensor> out = empty_like(self);                                   \
      if (test(op, out, self, value)) return out;                                       \
    }                                                                                   \
    return at::native::slow(self, value);                                               \
  }                                                                                     \
  void name##_(TensorList self, param value) {                                          \
    if (self.empty() || !test(op, self, self, value)) at::native::slow##_(self, value); \
  }

BOUND(clamp_min_scalar, "clamp_min", bound_scalar, foreach_tensor_clamp_min_scalar_kernel_slow,
      const c10::Scalar&)
BOUND(clamp_max_scalar, "clamp_max", bound_scalar, foreach_tensor_clamp_max_scalar_kernel_slow,
      const c10::Scalar&)
BOUND(clamp_min_scalars, "clamp_min", bound_scalars,
      foreach_tensor_clamp_min_scalarlist_kernel_slow, at::ArrayRef<c10::Scalar>)
BOUND(clamp_max_scalars, "clamp_max", bound_scalars,
      foreach_tensor_clamp_max_scalarlist_kernel_slow, at::ArrayRef<c10::Scalar>)

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
#define REGISTER_UNARY(op)     \
  m.impl("_foreach_" #op, op); \
  m.impl("_foreach_" #op "_", op##_);
  UNARY_OPS(REGISTER_UNARY)
  // ATen's maximum/minimum with scalars are the clamps.
  for (const char* name : {"_foreach_clamp_min", "_foreach_maximum"}) {
    m.impl((std::string(name) + ".Scalar").c_str(), clamp_min_scalar);
    m.impl((std::string(name) + "_.Scalar").c_str(), clamp_min_scalar_);
    m.impl((std::string(name) + ".ScalarList").c_str(), clamp_min_scalars);
    m.impl((std::string(name) + "_.ScalarList").c_str(), clamp_min_scalars_);
  }
  for (const char* name : {"_foreach_clamp_max", "_foreach_minimum"}) {
    m.impl((std::string(name) + ".Scalar").c_str(), clamp_max_scalar);
    m.impl((std::string(name) + "_.Scalar").c_str(), clamp_max_scalar_);
    m.impl((std::string(name) + ".ScalarList").c_str(), clamp_max_scalars);
    m.impl((std::string(name) + "_.ScalarList").c_str(), clamp_max_scalars_);
  }
}

}  // namespace torchvulkan::foreach
