// Activation backward ops, grad_input = f(grad_output, input or result): the
// "activation_backward.<op>" shader variants, over the iterator ATen's meta
// function builds (its input order is the shader op's argument order).
#include <ATen/native/Gelu.h>
#include <ATen/ops/elu_backward_meta.h>
#include <ATen/ops/gelu_backward_meta.h>
#include <ATen/ops/hardshrink_backward_meta.h>
#include <ATen/ops/hardsigmoid_backward_meta.h>
#include <ATen/ops/leaky_relu_backward_meta.h>
#include <ATen/ops/logit_backward_meta.h>
#include <ATen/ops/sigmoid_backward_meta.h>
#include <ATen/ops/silu_backward_meta.h>
#include <ATen/ops/softplus_backward_meta.h>
#include <ATen/ops/softshrink_backward_meta.h>
#include <ATen/ops/tanh_backward_meta.h>
#include <ATen/ops/threshold_backward_meta.h>
#include <c10/core/Scalar.h>
#include <torch/library.h>

#include <optional>

#include "aten/ops/activation/kernels.h"
#include "aten/structured.h"

namespace torchvulkan::activation {
namespace {

namespace m = at::meta;
using at::Tensor;
using c10::Scalar;
using Params = std::array<uint64_t, 4>;

// Backward ops without parameters: functional and grad_input forms.
#define PLAIN_BACKWARD(name, Meta)                                                          \
  Tensor name(const Tensor& grad, const Tensor& x) {                                        \
    return structured_functional<Meta>(kernel("activation_backward", #name), grad, x);      \
  }                                                                                         \
  Tensor& name##_out(const Tensor& grad, const Tensor& x, Tensor& grad_input) {             \
    return structured_out<Meta>(kernel("activation_backward", #name), grad_input, grad, x); \
  }

PLAIN_BACKWARD(sigmoid_backward, m::structured_sigmoid_backward)
PLAIN_BACKWARD(tanh_backward, m::structured_tanh_backward)
PLAIN_BACKWARD(silu_backward, m::structured_silu_backward)
PLAIN_BACKWARD(hardsigmoid_backward, m::structured_hardsigmoid_backward)

// ATen builds these two on its plain binary iterator and gives them no
// grad_input form of their own.
Tensor hardswish_backward(const Tensor& grad, const Tensor& x) {
  return structured_functional<BinaryMeta>(kernel("activation_backward", "hardswish_backward"),
                                           grad, x);
}
Tensor mish_backward(const Tensor& grad, const Tensor& x) {
  return structured_functional<BinaryMeta>(kernel("activation_backward", "mish_backward"), grad, x);
}

// threshold_backward is threshold(self, threshold, 0) choosing grad.
auto threshold_backward_kernel(const Scalar& threshold) {
  return kernel("activation_backward", "threshold", [=](auto t) {
    return Params{opmath_bits(threshold, t), opmath_bits(0, t)};
  });
}
Tensor threshold_backward(const Tensor& grad, const Tensor& x, const Scalar& threshold) {
  return structured_functional<m::structured_threshold_backward>(
      threshold_backward_kernel(threshold), grad, x, threshold);
}
Tensor& threshold_backward_out(const Tensor& grad, const Tensor& x, const Scalar& threshold,
                               Tensor& grad_input) {
  return structured_out<m::structured_threshold_backward>(threshold_backward_kernel(threshold),
                                                          grad_input, grad, x, threshold);
}

auto gelu_backward_kernel(c10::string_view approximate) {
  bool tanh = at::native::get_gelutype_enum(approximate) == at::native::GeluType::Tanh;
  return kernel("activation_backward", tanh ? "gelu_tanh_backward" : "gelu_backward");
}
Tensor gelu_backward(const Tensor& grad, const Tensor& x, c10::string_view approximate) {
  return structured_functional<m::structured_gelu_backward>(gelu_backward_kernel(approximate), grad,
                                                            x, approximate);
}
Tensor& gelu_backward_out(const Tensor& grad, const Tensor& x, c10::string_view approximate,
                          Tensor& grad_input) {
  return structured_out<m::structured_gelu_backward>(gelu_backward_kernel(approximate), grad_input,
                                                     grad, x, approximate);
}

// The iterator reads (self or result, grad).
auto leaky_relu_backward_kernel(const Scalar& slope) {
  return kernel("activation_backward", "leaky_relu_backward",
                [=](auto t) { return Params{opmath_bits(slope, t)}; });
}
Tensor leaky_relu_backward(const Tensor& grad, const Tensor& x, const Scalar& slope,
                           bool is_result) {
  return structured_functional<m::structured_leaky_relu_backward>(leaky_relu_backward_kernel(slope),
                                                                  grad, x, slope, is_result);
}
Tensor& leaky_relu_backward_out(const Tensor& grad, const Tensor& x, const Scalar& slope,
                                bool is_result, Tensor& grad_input) {
  return structured_out<m::structured_leaky_relu_backward>(leaky_relu_backward_kernel(slope),
                                                           grad_input, grad, x, slope, is_result);
}

// From elu's result (after an in-place elu) the gradient needs no exp.
auto elu_backward_kernel(const Scalar& alpha, const Scalar& scale, const Scalar& input_scale,
                         bool is_result) {
  return kernel(
      "activation_backward", is_result ? "elu_backward_result" : "elu_backward", [=](auto t) {
        return Params{opmath_bits(alpha, t), opmath_bits(scale, t), opmath_bits(input_scale, t)};
      });
}
Tensor elu_backward(const Tensor& grad, const Scalar& alpha, const Scalar& scale,
                    const Scalar& input_scale, bool is_result, const Tensor& x) {
  return structured_functional<m::structured_elu_backward>(
      elu_backward_kernel(alpha, scale, input_scale, is_result), grad, alpha, scale, input_scale,
      is_result, x);
}
Tensor& elu_backward_out(const Tensor& grad, const Scalar& alpha, const Scalar& scale,
                         const Scalar& input_scale, bool is_result, const Tensor& x,
                         Tensor& grad_input) {
  return structured_out<m::structured_elu_backward>(
      elu_backward_kernel(alpha, scale, input_scale, is_result), grad_input, grad, alpha, scale,
      input_scale, is_result, x);
}

auto softplus_backward_kernel(const Scalar& beta, const Scalar& threshold) {
  return kernel("activation_backward", "softplus_backward", [=](auto t) {
    return Params{opmath_bits(beta, t), opmath_bits(threshold, t)};
  });
}
Tensor softplus_backward(const Tensor& grad, const Tensor& x, const Scalar& beta,
                         const Scalar& threshold) {
  return structured_functional<m::structured_softplus_backward>(
      softplus_backward_kernel(beta, threshold), grad, x, beta, threshold);
}
Tensor& softplus_backward_out(const Tensor& grad, const Tensor& x, const Scalar& beta,
                              const Scalar& threshold, Tensor& grad_input) {
  return structured_out<m::structured_softplus_backward>(softplus_backward_kernel(beta, threshold),
                                                         grad_input, grad, x, beta, threshold);
}

// hardshrink's and softshrink's: the gradient passes outside [-lambd, lambd].
auto shrink_backward_kernel(const Scalar& lambd) {
  return kernel("activation_backward", "shrink_backward",
                [=](auto t) { return Params{opmath_bits(lambd, t)}; });
}
#define SHRINK_BACKWARD(name)                                                                    \
  Tensor name(const Tensor& grad, const Tensor& x, const Scalar& lambd) {                        \
    return structured_functional<m::structured_##name>(shrink_backward_kernel(lambd), grad, x,   \
                                                       lambd);                                   \
  }                                                                                              \
  Tensor& name##_out(const Tensor& grad, const Tensor& x, const Scalar& lambd,                   \
                     Tensor& grad_input) {                                                       \
    return structured_out<m::structured_##name>(shrink_backward_kernel(lambd), grad_input, grad, \
                                                x, lambd);                                       \
  }
SHRINK_BACKWARD(hardshrink_backward)
SHRINK_BACKWARD(softshrink_backward)

// Bounds in the math type: the CPU kernel compares in float for bfloat16.
auto hardtanh_backward_kernel(const Scalar& min, const Scalar& max) {
  return kernel("activation_backward", "hardtanh_backward", [=](auto t) {
    return Params{opmath_bits(min, t), opmath_bits(max, t)};
  });
}
Tensor hardtanh_backward(const Tensor& grad, const Tensor& x, const Scalar& min,
                         const Scalar& max) {
  return structured_functional<BinaryMeta>(hardtanh_backward_kernel(min, max), grad, x);
}
Tensor& hardtanh_backward_out(const Tensor& grad, const Tensor& x, const Scalar& min,
                              const Scalar& max, Tensor& grad_input) {
  return structured_out<BinaryMeta>(hardtanh_backward_kernel(min, max), grad_input, grad, x);
}

// The gradient is taken on [eps, 1 - eps], both in the tensor's dtype as ATen
// computes them; without eps it is NaN outside [0, 1] (lo < 0 says so).
auto logit_backward_kernel(std::optional<double> eps) {
  return kernel("activation_backward", "logit_backward", [=](c10::ScalarType t) {
    if (!eps || *eps < 0) return Params{scalar_bits(-1, t)};
    Params params{};
    AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, t, "logit_backward", [&] {
      scalar_t lo = static_cast<scalar_t>(*eps);
      scalar_t hi = scalar_t(1) - lo;
      params = {scalar_bits(Scalar(lo), t), scalar_bits(Scalar(hi), t)};
    });
    return params;
  });
}
Tensor logit_backward(const Tensor& grad, const Tensor& x, std::optional<double> eps) {
  return structured_functional<m::structured_logit_backward>(logit_backward_kernel(eps), grad, x,
                                                             eps);
}
Tensor& logit_backward_out(const Tensor& grad, const Tensor& x, std::optional<double> eps,
                           Tensor& grad_input) {
  return structured_out<m::structured_logit_backward>(logit_backward_kernel(eps), grad_input, grad,
                                                      x, eps);
}

// The forward's buffer is empty (see forward.cpp): the kernel recomputes it.
Tensor log_sigmoid_backward(const Tensor& grad, const Tensor& x, const Tensor&) {
  return structured_functional<BinaryMeta>(kernel("activation_backward", "log_sigmoid_backward"),
                                           grad, x);
}
Tensor& log_sigmoid_backward_out(const Tensor& grad, const Tensor& x, const Tensor&,
                                 Tensor& grad_input) {
  return structured_out<BinaryMeta>(kernel("activation_backward", "log_sigmoid_backward"),
                                    grad_input, grad, x);
}

}  // namespace

#define REGISTER_BACKWARD(m, name) \
  m.impl(#name, name);             \
  m.impl(#name ".grad_input", name##_out);

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  REGISTER_BACKWARD(m, threshold_backward)
  REGISTER_BACKWARD(m, sigmoid_backward)
  REGISTER_BACKWARD(m, tanh_backward)
  REGISTER_BACKWARD(m, silu_backward)
  REGISTER_BACKWARD(m, gelu_backward)
  REGISTER_BACKWARD(m, leaky_relu_backward)
  REGISTER_BACKWARD(m, elu_backward)
  REGISTER_BACKWARD(m, softplus_backward)
  REGISTER_BACKWARD(m, hardshrink_backward)
  REGISTER_BACKWARD(m, softshrink_backward)
  REGISTER_BACKWARD(m, hardtanh_backward)
  REGISTER_BACKWARD(m, hardsigmoid_backward)
  REGISTER_BACKWARD(m, logit_backward)
  REGISTER_BACKWARD(m, log_sigmoid_backward)
  m.impl("hardswish_backward", hardswish_backward);
  m.impl("mish_backward", mish_backward);
}

}  // namespace torchvulkan::activation
