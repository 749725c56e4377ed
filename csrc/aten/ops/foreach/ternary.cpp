// Ternary _foreach_ ops through shaders/elementwise/foreach_ternary.comp:
// addcmul and addcdiv (value in scalar slot 0, per tensor for a ScalarList
// or a host tensor of scalars) and lerp with a list of weights.
#include <ATen/ops/_foreach_addcdiv_native.h>
#include <ATen/ops/_foreach_addcmul_native.h>
#include <ATen/ops/_foreach_lerp_native.h>
#include <torch/library.h>

#include "aten/ops/foreach/foreach.h"

namespace torchvulkan::foreach {
namespace {

using at::native::can_use_fast_route;
using at::native::check_foreach_api_restrictions;

bool ternary(const char* op, TensorList out, TensorList self, TensorList a, TensorList b,
             at::ArrayRef<c10::Scalar> values) {
  if (!can_use_fast_route({self, a, b}, values, std::string_view(op) == "addcdiv")) return false;
  std::string k = kernel("foreach_ternary", op, self[0]);
  if (k.empty()) return false;
  MultiLaunch launch = values.size() > 1 ? per_tensor(0, values, self[0]) : MultiLaunch{};
  if (values.size() == 1) launch.scalars[0] = bits(values[0], self[0]);
  run(k, out, {MultiOperand::list(self), MultiOperand::list(a), MultiOperand::list(b)}, launch);
  return true;
}

bool with_value(const char* op, TensorList out, TensorList self, TensorList a, TensorList b,
                const c10::Scalar& value) {
  check_foreach_api_restrictions(self, a, b);
  return ternary(op, out, self, a, b, value);
}

bool with_values(const char* op, TensorList out, TensorList self, TensorList a, TensorList b,
                 at::ArrayRef<c10::Scalar> values) {
  check_foreach_api_restrictions(self, a, b, values);
  return ternary(op, out, self, a, b, values);
}

bool with_tensor(const char* op, TensorList out, TensorList self, TensorList a, TensorList b,
                 const at::Tensor& values) {
  return with_values(op, out, self, a, b,
                     at::native::convert_tensor_to_scalar_list(values, self.size()));
}

bool weights(TensorList out, TensorList self, TensorList end, TensorList weight) {
  check_foreach_api_restrictions(self, end, weight);
  return ternary("lerp", out, self, end, weight, {});
}

}  // namespace

#define TERNARY(name, op, test, slow, param)                                               \
  std::vector<at::Tensor> name(TensorList self, TensorList a, TensorList b, param value) { \
    if (!self.empty()) {                                                                   \
      std::vector<at::Tensor> out = empty_like(self);                                      \
      if (test(op, out, self, a, b, value)) return out;                                    \
    }                                                                                      \
    return at::native::slow(self, a, b, value);                                            \
  }                                                                                        \
  void name##_(TensorList self, TensorList a, TensorList b, param value) {                 \
    if (self.empty() || !test(op, self, self, a, b, value))                                \
      at::native::slow##_(self, a, b, value);                                              \
  }

TERNARY(addcmul_scalar, "addcmul", with_value, foreach_tensor_addcmul_scalar_slow,
        const c10::Scalar&)
TERNARY(addcmul_scalars, "addcmul", with_values, foreach_tensor_addcmul_scalarlist_slow,
        at::ArrayRef<c10::Scalar>)
TERNARY(addcmul_tensor, "addcmul", with_tensor, foreach_tensor_addcmul_tensor_slow,
        const at::Tensor&)
TERNARY(addcdiv_scalar, "addcdiv", with_value, foreach_tensor_addcdiv_scalar_slow,
        const c10::Scalar&)
TERNARY(addcdiv_scalars, "addcdiv", with_values, foreach_tensor_addcdiv_scalarlist_slow,
        at::ArrayRef<c10::Scalar>)
TERNARY(addcdiv_tensor, "addcdiv", with_tensor, foreach_tensor_addcdiv_tensor_slow,
        const at::Tensor&)

std::vector<at::Tensor> lerp_list(TensorList self, TensorList end, TensorList weight) {
  if (!self.empty()) {
    std::vector<at::Tensor> out = empty_like(self);
    if (weights(out, self, end, weight)) return out;
  }
  return at::native::foreach_tensor_ternary_lerp_slow(self, end, weight);
}

void lerp_list_(TensorList self, TensorList end, TensorList weight) {
  if (self.empty() || !weights(self, self, end, weight))
    at::native::foreach_tensor_ternary_lerp_slow_(self, end, weight);
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_foreach_addcmul.Scalar", addcmul_scalar);
  m.impl("_foreach_addcmul_.Scalar", addcmul_scalar_);
  m.impl("_foreach_addcmul.ScalarList", addcmul_scalars);
  m.impl("_foreach_addcmul_.ScalarList", addcmul_scalars_);
  m.impl("_foreach_addcmul.Tensor", addcmul_tensor);
  m.impl("_foreach_addcmul_.Tensor", addcmul_tensor_);
  m.impl("_foreach_addcdiv.Scalar", addcdiv_scalar);
  m.impl("_foreach_addcdiv_.Scalar", addcdiv_scalar_);
  m.impl("_foreach_addcdiv.ScalarList", addcdiv_scalars);
  m.impl("_foreach_addcdiv_.ScalarList", addcdiv_scalars_);
  m.impl("_foreach_addcdiv.Tensor", addcdiv_tensor);
  m.impl("_foreach_addcdiv_.Tensor", addcdiv_tensor_);
  m.impl("_foreach_lerp.List", lerp_list);
  m.impl("_foreach_lerp_.List", lerp_list_);
}

}  // namespace torchvulkan::foreach
