// logit(x) = log(x / (1 - x)), with x first clamped to [eps, 1 - eps] when eps
// is given (eps < 0 clamps nothing). Not structured: ATen runs it over a
// unary float iterator, so integer and bool inputs compute in the default
// float dtype.
#include <ATen/Dispatch.h>
#include <torch/library.h>

#include "aten/launch.h"
#include "aten/ops/elementwise/cast_bits.h"
#include "aten/ops/elementwise/forms.h"

namespace torchvulkan {
namespace {

// Scalars of unary.logit: the bounds, rounded to the dtype as ATen's CPU
// kernel rounds them, and whether to clamp.
std::array<uint64_t, 4> logit_params(c10::ScalarType type, std::optional<double> eps) {
  std::array<uint64_t, 4> params{};
  if (!eps || !(*eps >= 0.0)) return params;
  AT_DISPATCH_FLOATING_TYPES_AND2(c10::kHalf, c10::kBFloat16, type, "logit", [&] {
    auto lo = static_cast<scalar_t>(*eps);
    auto hi = static_cast<scalar_t>(scalar_t(1) - lo);
    params = {cast_bits(static_cast<double>(lo), type), cast_bits(static_cast<double>(hi), type),
              cast_bits(1.0, type)};
  });
  return params;
}

at::Tensor logit(const at::Tensor& x, std::optional<double> eps) {
  at::Tensor out;
  auto iter = at::TensorIterator::unary_float_op(out, float_input(x));
  pointwise(iter, "unary", "logit", logit_params(iter.common_dtype(), eps));
  return iter.output();
}

at::Tensor& logit_out(const at::Tensor& x, std::optional<double> eps, at::Tensor& out) {
  auto iter = at::TensorIterator::unary_float_op(out, float_input(x));
  if (!pointwise(iter, "unary", "logit", logit_params(iter.common_dtype(), eps))) {
    out.copy_(at::logit(x, eps));  // an out= of another float dtype
  }
  return out;
}

at::Tensor& logit_(at::Tensor& x, std::optional<double> eps) {
  return logit_out(x, eps, x);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("logit", logit);
  m.impl("logit_", logit_);
  m.impl("logit.out", logit_out);
}

}  // namespace torchvulkan
