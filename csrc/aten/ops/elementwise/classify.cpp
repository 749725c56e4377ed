// Tests and repair of float values: isnan, isinf, isposinf, isneginf, signbit
// (bool out, any input dtype: integers are never NaN or infinite) and
// nan_to_num.
#include <ATen/native/Resize.h>
#include <ATen/ops/isneginf_meta.h>
#include <ATen/ops/isposinf_meta.h>
#include <ATen/ops/signbit_meta.h>
#include <torch/library.h>

#include <limits>

#include "aten/launch.h"
#include "aten/ops/elementwise/cast_bits.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;
using Iter = at::TensorIteratorBase;

// isnan and isinf are not structured: a bool-out iterator over x, as ATen's
// build_borrowing_unary_force_boolean_op makes for the structured ones.
at::Tensor predicate(const at::Tensor& x, std::string_view op) {
  auto iter = at::TensorIteratorConfig()
                  .check_all_same_dtype(false)
                  .declare_static_dtype(c10::kBool)
                  .declare_static_device(x.device())
                  .add_owned_output(at::Tensor())
                  .add_owned_const_input(x)
                  .build();
  pointwise(iter, "predicate", op, {}, /*bool_output=*/true);
  return iter.output();
}

at::Tensor isnan(const at::Tensor& x) {
  return predicate(x, "isnan");
}
at::Tensor isinf(const at::Tensor& x) {
  return predicate(x, "isinf");
}

#define PREDICATE_FORMS(name)                                             \
  bool name##_kernel(Iter& iter) {                                        \
    return pointwise(iter, "predicate", #name, {}, true);                 \
  }                                                                       \
  at::Tensor name(const at::Tensor& x) {                                  \
    return structured_functional<m::structured_##name>(name##_kernel, x); \
  }                                                                       \
  at::Tensor& name##_out(const at::Tensor& x, at::Tensor& out) {          \
    return structured_out<m::structured_##name>(name##_kernel, out, x);   \
  }

PREDICATE_FORMS(isposinf)
PREDICATE_FORMS(isneginf)
PREDICATE_FORMS(signbit)

// NaN, +inf and -inf replaced by the given values, by default 0 and the
// dtype's largest and lowest finite values. Integers and bools are copied.
at::Tensor& nan_to_num_out(const at::Tensor& x, std::optional<double> nan,
                           std::optional<double> posinf, std::optional<double> neginf,
                           at::Tensor& out) {
  TORCH_CHECK(x.scalar_type() == out.scalar_type(), "nan_to_num: dtype of out: ", out.scalar_type(),
              " should be same as input: ", x.scalar_type());
  if (c10::isIntegralType(x.scalar_type(), /*includeBool=*/true)) {
    at::native::resize_output(out, x.sizes());
    out.copy_(x);
    return out;
  }
  c10::ScalarType type = x.scalar_type();
  double max = 0.0;
  AT_DISPATCH_FLOATING_TYPES_AND2(c10::kHalf, c10::kBFloat16, type, "nan_to_num", [&] {
    max = static_cast<double>(std::numeric_limits<scalar_t>::max());
  });
  auto iter = at::TensorIterator::unary_op(out, x);
  pointwise(iter, "unary", "nan_to_num",
            {cast_bits(nan.value_or(0.0), type), cast_bits(posinf.value_or(max), type),
             cast_bits(neginf.value_or(-max), type)});
  return out;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("isnan", isnan);
  m.impl("isinf", isinf);
  m.impl("isposinf", isposinf);
  m.impl("isposinf.out", isposinf_out);
  m.impl("isneginf", isneginf);
  m.impl("isneginf.out", isneginf_out);
  m.impl("signbit", signbit);
  m.impl("signbit.out", signbit_out);
  m.impl("nan_to_num.out", nan_to_num_out);
}

}  // namespace torchvulkan
