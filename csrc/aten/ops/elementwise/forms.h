#pragma once
// Shared pieces of the elementwise op files: the functional, in-place and out=
// forms of a structured binary op, and scalar parameters in the shaders' types.
#include <c10/core/DefaultDtype.h>
#include <c10/core/ScalarType.h>
#include <c10/util/Exception.h>

#include "aten/launch.h"
#include "aten/structured.h"

namespace torchvulkan {

// A scalar parameter (alpha, a weight, `value`) in ATen's opmath type: 16-bit
// floats take it as float, as their kernels compute, not rounded to 16 bits.
inline uint64_t opmath_bits(const c10::Scalar& value, c10::ScalarType type) {
  return scalar_bits(value, c10::isReducedFloatingType(type) ? c10::ScalarType::Float : type);
}

// The input of a unary float iterator (TensorIterator::unary_float_op): ATen
// casts integer and bool inputs to the default float dtype only on the CPU.
inline at::Tensor float_input(const at::Tensor& x) {
  if (!c10::isIntegralType(x.scalar_type(), /*includeBool=*/true)) return x;
  return x.to(c10::typeMetaToScalarType(c10::get_default_dtype()));
}

}  // namespace torchvulkan

// name(a, b) and name_out(a, b, out) of the structured op whose meta class is
// at::meta::<meta>, both through `kernel`; TV_BINARY_FORMS adds name_(a, b).
#define TV_BINARY_FUNCTIONAL_OUT(name, Meta, kernel)                                  \
  at::Tensor name(const at::Tensor& a, const at::Tensor& b) {                         \
    return structured_functional<at::meta::Meta>(kernel, a, b);                       \
  }                                                                                   \
  at::Tensor& name##_out(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) { \
    return structured_out<at::meta::Meta>(kernel, out, a, b);                         \
  }

// name(x), name_(x) and name_out(x, out) of the structured unary op whose
// meta class is at::meta::<Meta>, through `kernel`.
#define TV_UNARY_FORMS(name, Meta, kernel)                       \
  at::Tensor name(const at::Tensor& x) {                         \
    return structured_functional<at::meta::Meta>(kernel, x);     \
  }                                                              \
  at::Tensor& name##_(at::Tensor& x) {                           \
    return structured_inplace<at::meta::Meta>(kernel, x);        \
  }                                                              \
  at::Tensor& name##_out(const at::Tensor& x, at::Tensor& out) { \
    return structured_out<at::meta::Meta>(kernel, out, x);       \
  }

#define TV_BINARY_FORMS(name, Meta, kernel)                  \
  TV_BINARY_FUNCTIONAL_OUT(name, Meta, kernel)               \
  at::Tensor& name##_(at::Tensor& a, const at::Tensor& b) {  \
    return structured_inplace<at::meta::Meta>(kernel, a, b); \
  }
