// Activations, out = act(x): the "activation.<op>" shader variants, driven by
// ATen's meta functions (relu and hardtanh by clamp's, as ATen defines them).
// threshold shares the two-input kernel of threshold_backward.
#include <ATen/native/Gelu.h>
#include <ATen/ops/clamp_meta.h>
#include <ATen/ops/clamp_min_meta.h>
#include <ATen/ops/elu_meta.h>
#include <ATen/ops/gelu_meta.h>
#include <ATen/ops/hardshrink_meta.h>
#include <ATen/ops/hardsigmoid_meta.h>
#include <ATen/ops/leaky_relu_meta.h>
#include <ATen/ops/mish_meta.h>
#include <ATen/ops/silu_meta.h>
#include <ATen/ops/softplus_meta.h>
#include <ATen/ops/softshrink_meta.h>
#include <ATen/ops/threshold_meta.h>
#include <torch/library.h>

#include <utility>

#include "aten/ops/activation/kernels.h"
#include "aten/structured.h"

namespace torchvulkan::activation {
namespace {

namespace m = at::meta;
using at::Tensor;
using c10::Scalar;
using Params = std::array<uint64_t, 4>;

// relu is clamp_min(x, 0).
void check_relu(const Tensor& x) {
  TORCH_CHECK(x.scalar_type() != at::kBool, "Boolean inputs not supported for relu");
}
Tensor relu(const Tensor& x) {
  check_relu(x);
  return structured_functional<m::structured_clamp_min>(kernel("activation", "relu"), x, Scalar(0));
}
Tensor& relu_(Tensor& x) {
  check_relu(x);
  return structured_inplace<m::structured_clamp_min>(kernel("activation", "relu"), x, Scalar(0));
}

auto leaky_relu_kernel(const Scalar& slope) {
  return kernel("activation", "leaky_relu", [=](auto t) { return Params{opmath_bits(slope, t)}; });
}
Tensor leaky_relu(const Tensor& x, const Scalar& slope) {
  return structured_functional<m::structured_leaky_relu>(leaky_relu_kernel(slope), x, slope);
}
Tensor& leaky_relu_(Tensor& x, const Scalar& slope) {
  return structured_inplace<m::structured_leaky_relu>(leaky_relu_kernel(slope), x, slope);
}
Tensor& leaky_relu_out(const Tensor& x, const Scalar& slope, Tensor& out) {
  return structured_out<m::structured_leaky_relu>(leaky_relu_kernel(slope), out, x, slope);
}

// elu serves selu and celu too.
auto elu_kernel(const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  return kernel("activation", "elu", [=](auto t) {
    return Params{opmath_bits(alpha, t), opmath_bits(scale, t), opmath_bits(input_scale, t)};
  });
}
Tensor elu(const Tensor& x, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  return structured_functional<m::structured_elu>(elu_kernel(alpha, scale, input_scale), x, alpha,
                                                  scale, input_scale);
}
Tensor& elu_(Tensor& x, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  return structured_inplace<m::structured_elu>(elu_kernel(alpha, scale, input_scale), x, alpha,
                                               scale, input_scale);
}
Tensor& elu_out(const Tensor& x, const Scalar& alpha, const Scalar& scale,
                const Scalar& input_scale, Tensor& out) {
  return structured_out<m::structured_elu>(elu_kernel(alpha, scale, input_scale), out, x, alpha,
                                           scale, input_scale);
}

auto gelu_kernel(c10::string_view approximate) {
  bool tanh = at::native::get_gelutype_enum(approximate) == at::native::GeluType::Tanh;
  return kernel("activation", tanh ? "gelu_tanh" : "gelu");
}
Tensor gelu(const Tensor& x, c10::string_view approximate) {
  return structured_functional<m::structured_gelu>(gelu_kernel(approximate), x, approximate);
}
Tensor& gelu_(Tensor& x, c10::string_view approximate) {
  return structured_inplace<m::structured_gelu>(gelu_kernel(approximate), x, approximate);
}
Tensor& gelu_out(const Tensor& x, c10::string_view approximate, Tensor& out) {
  return structured_out<m::structured_gelu>(gelu_kernel(approximate), out, x, approximate);
}

// Ops without parameters, each a structured meta or ATen's unary iterator.
#define PLAIN_FORMS(name, Meta)                                         \
  Tensor name(const Tensor& x) {                                        \
    return structured_functional<Meta>(kernel("activation", #name), x); \
  }                                                                     \
  Tensor& name##_(Tensor& x) {                                          \
    return structured_inplace<Meta>(kernel("activation", #name), x);    \
  }                                                                     \
  Tensor& name##_out(const Tensor& x, Tensor& out) {                    \
    return structured_out<Meta>(kernel("activation", #name), out, x);   \
  }

PLAIN_FORMS(silu, m::structured_silu)
PLAIN_FORMS(mish, m::structured_mish)
PLAIN_FORMS(hardsigmoid, m::structured_hardsigmoid)
PLAIN_FORMS(hardswish, UnaryMeta)

auto softplus_kernel(const Scalar& beta, const Scalar& threshold) {
  return kernel("activation", "softplus", [=](auto t) {
    return Params{opmath_bits(beta, t), opmath_bits(threshold, t)};
  });
}
Tensor softplus(const Tensor& x, const Scalar& beta, const Scalar& threshold) {
  return structured_functional<m::structured_softplus>(softplus_kernel(beta, threshold), x, beta,
                                                       threshold);
}
Tensor& softplus_out(const Tensor& x, const Scalar& beta, const Scalar& threshold, Tensor& out) {
  return structured_out<m::structured_softplus>(softplus_kernel(beta, threshold), out, x, beta,
                                                threshold);
}

// hardshrink and softshrink: one parameter, lambd (softshrink's meta checks
// it is not negative).
auto shrink_kernel(std::string_view op, const Scalar& lambd) {
  return kernel("activation", op, [=](auto t) { return Params{opmath_bits(lambd, t)}; });
}
#define SHRINK_FORMS(name)                                                                     \
  Tensor name(const Tensor& x, const Scalar& lambd) {                                          \
    return structured_functional<m::structured_##name>(shrink_kernel(#name, lambd), x, lambd); \
  }                                                                                            \
  Tensor& name##_out(const Tensor& x, const Scalar& lambd, Tensor& out) {                      \
    return structured_out<m::structured_##name>(shrink_kernel(#name, lambd), out, x, lambd);   \
  }
SHRINK_FORMS(hardshrink)
SHRINK_FORMS(softshrink)

// hardtanh is clamp(x, min, max), its bounds truncated for integer tensors;
// clamp rounds them to the tensor's dtype.
std::pair<Scalar, Scalar> hardtanh_bounds(const Tensor& x, const Scalar& min, const Scalar& max) {
  TORCH_CHECK(x.scalar_type() != at::kBool, "Bool inputs not supported for hardtanh");
  if (!at::isIntegralType(x.scalar_type(), /*includeBool=*/false)) return {min, max};
  int64_t lo = min.toLong(), hi = max.toLong();
  TORCH_CHECK(x.scalar_type() != at::kByte || (lo >= 0 && hi >= 0),
              "cannot do hardtanh on an unsigned type with negative limits");
  return {lo, hi};
}
auto hardtanh_kernel(const Scalar& lo, const Scalar& hi) {
  return kernel("activation", "hardtanh", [=](auto t) {
    return Params{scalar_bits(lo, t), scalar_bits(hi, t)};
  });
}
Tensor hardtanh(const Tensor& x, const Scalar& min, const Scalar& max) {
  auto [lo, hi] = hardtanh_bounds(x, min, max);
  return structured_functional<m::structured_clamp>(
      hardtanh_kernel(lo, hi), x, at::OptionalScalarRef(&lo), at::OptionalScalarRef(&hi));
}
Tensor& hardtanh_(Tensor& x, const Scalar& min, const Scalar& max) {
  auto [lo, hi] = hardtanh_bounds(x, min, max);
  return structured_inplace<m::structured_clamp>(
      hardtanh_kernel(lo, hi), x, at::OptionalScalarRef(&lo), at::OptionalScalarRef(&hi));
}
Tensor& hardtanh_out(const Tensor& x, const Scalar& min, const Scalar& max, Tensor& out) {
  auto [lo, hi] = hardtanh_bounds(x, min, max);
  return structured_out<m::structured_clamp>(
      hardtanh_kernel(lo, hi), out, x, at::OptionalScalarRef(&lo), at::OptionalScalarRef(&hi));
}

// threshold's iterator reads x twice: (self, other = self).
auto threshold_kernel(const Scalar& threshold, const Scalar& value) {
  return kernel("activation_backward", "threshold", [=](auto t) {
    return Params{opmath_bits(threshold, t), opmath_bits(value, t)};
  });
}
Tensor threshold(const Tensor& x, const Scalar& threshold, const Scalar& value) {
  return structured_functional<m::structured_threshold>(threshold_kernel(threshold, value), x,
                                                        threshold, value);
}
Tensor& threshold_(Tensor& x, const Scalar& threshold, const Scalar& value) {
  return structured_inplace<m::structured_threshold>(threshold_kernel(threshold, value), x,
                                                     threshold, value);
}
Tensor& threshold_out(const Tensor& x, const Scalar& threshold, const Scalar& value, Tensor& out) {
  return structured_out<m::structured_threshold>(threshold_kernel(threshold, value), out, x,
                                                 threshold, value);
}

// The buffer is the CPU's exp(-|x|), kept for its backward; as for CUDA it
// stays empty here and the backward recomputes it.
std::tuple<Tensor, Tensor> log_sigmoid_forward(const Tensor& x) {
  Tensor out = structured_functional<UnaryMeta>(kernel("activation", "log_sigmoid"), x);
  return {out, at::empty({0}, x.options())};
}
std::tuple<Tensor&, Tensor&> log_sigmoid_forward_out(const Tensor& x, Tensor& out, Tensor& buffer) {
  structured_out<UnaryMeta>(kernel("activation", "log_sigmoid"), out, x);
  at::native::resize_output(buffer, {0});
  return {out, buffer};
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("relu", relu);  // relu.out is ATen's composite of relu
  m.impl("relu_", relu_);
  REGISTER_FORMS(leaky_relu)
  REGISTER_FORMS(elu)
  REGISTER_FORMS(gelu)
  REGISTER_FORMS(silu)
  REGISTER_FORMS(mish)
  REGISTER_FORMS(hardsigmoid)
  REGISTER_FORMS(hardswish)
  REGISTER_FORMS(hardtanh)
  REGISTER_FORMS(threshold)
  m.impl("hardshrink", hardshrink);
  m.impl("hardshrink.out", hardshrink_out);
  m.impl("softshrink", softshrink);
  m.impl("softshrink.out", softshrink_out);
  m.impl("softplus", softplus);
  m.impl("softplus.out", softplus_out);
  m.impl("log_sigmoid_forward", log_sigmoid_forward);
  m.impl("log_sigmoid_forward.output", log_sigmoid_forward_out);
}

}  // namespace torchvulkan::activation
