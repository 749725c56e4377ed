// _standard_gamma, poisson, binomial and _sample_dirichlet: samplers that
// draw a data-dependent number of random words per element
// (shaders/random/rejection.comp), over a TensorIterator of the output and
// the parameters (one dtype, as the CPU requires). Dirichlet normalizes
// Gamma draws along the last dimension and keeps them in [smallest normal,
// largest below 1], as the CPU does.
#include <ATen/TensorIterator.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/empty_like.h>
#include <torch/library.h>

#include <cmath>
#include <limits>
#include <optional>

#include "aten/ops/random/sample.h"

namespace torchvulkan {
namespace {

at::Tensor draw(const char* op, const at::Tensor& first, const at::Tensor& second,
                const std::optional<at::Generator>& generator) {
  at::Tensor out = at::empty_like(first, at::MemoryFormat::Preserve);
  at::TensorIteratorConfig config;
  config.add_output(out).add_const_input(first);
  if (second.defined()) config.add_const_input(second);
  auto iter = config.build();
  random::launch(std::string("rejection.") + op, iter, generator);
  return out;
}

at::Tensor standard_gamma(const at::Tensor& alpha, std::optional<at::Generator> generator) {
  return draw("gamma", alpha, {}, generator);
}

at::Tensor poisson(const at::Tensor& rates, std::optional<at::Generator> generator) {
  return draw("poisson", rates, {}, generator);
}

at::Tensor binomial(const at::Tensor& count, const at::Tensor& prob,
                    std::optional<at::Generator> generator) {
  return draw("binomial", count, prob, generator);
}

at::Tensor sample_dirichlet(const at::Tensor& alpha, std::optional<at::Generator> generator) {
  at::Tensor gamma = standard_gamma(alpha, generator);
  double below_one = alpha.scalar_type() == at::kDouble
                         ? std::nextafter(1.0, 0.0)
                         : static_cast<double>(std::nextafter(1.0f, 0.0f));
  double tiny = alpha.scalar_type() == at::kDouble ? std::numeric_limits<double>::min()
                                                   : std::numeric_limits<float>::min();
  return (gamma / gamma.sum(-1, /*keepdim=*/true)).clamp(tiny, below_one);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_standard_gamma", standard_gamma);
  m.impl("poisson", poisson);
  m.impl("binomial", binomial);
  m.impl("_sample_dirichlet", sample_dirichlet);
}

}  // namespace torchvulkan
