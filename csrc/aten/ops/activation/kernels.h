#pragma once
// Kernels for the activation ops, in the form structured.h takes: launch a
// variant of shaders/activation for the iterator's dtype, with parameters
// converted for that dtype.
#include <ATen/OpMathType.h>
#include <ATen/TensorIterator.h>

#include <array>
#include <cstdint>
#include <string_view>

#include "aten/launch.h"

namespace torchvulkan::activation {

// ATen's CPU kernels take most activation parameters in the op's math type
// (float for 16-bit floats) rather than rounded to the tensor's dtype.
inline uint64_t opmath_bits(const c10::Scalar& value, c10::ScalarType dtype) {
  return scalar_bits(value, at::toOpMathType(dtype));
}

// Launches "<family>.<op>.<dtype>" with the parameters `params(dtype)`.
template <class Params>
auto kernel(std::string_view family, std::string_view op, Params params) {
  return [=](at::TensorIteratorBase& iter) {
    std::array<uint64_t, 4> scalars = params(iter.common_dtype());
    return pointwise(iter, family, op, scalars);
  };
}

inline auto kernel(std::string_view family, std::string_view op) {
  return kernel(family, op, [](c10::ScalarType) { return std::array<uint64_t, 4>{}; });
}

// ATen's unary and binary iterators as "meta functions", so the ops ATen
// does not implement as structured get structured.h's forms too.
struct UnaryMeta : at::TensorIteratorBase {
  void meta(const at::Tensor& x) { build_borrowing_unary_op(maybe_get_output(), x); }
};
struct BinaryMeta : at::TensorIteratorBase {
  void meta(const at::Tensor& a, const at::Tensor& b) {
    build_borrowing_binary_op(maybe_get_output(), a, b);
  }
};

}  // namespace torchvulkan::activation
