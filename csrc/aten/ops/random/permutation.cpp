// randperm and multinomial with replacement, from the device's random_,
// uniform_, sort, cumsum and searchsorted: no kernels of their own.
#include <ATen/native/TensorFactories.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/ops/cumsum.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/multinomial_native.h>
#include <ATen/ops/searchsorted.h>
#include <ATen/ops/stack.h>
#include <torch/library.h>

#include <limits>

namespace torchvulkan {
namespace {

// A uniformly random order: the one that sorts n random 64-bit keys. Equal
// keys (probability about n^2 / 2^65) keep their index order, the sort being
// stable, so a seed still gives one permutation.
at::Tensor& randperm_out(int64_t n, std::optional<at::Generator> generator, at::Tensor& result) {
  TORCH_CHECK(n >= 0, "n must be non-negative, got", n);
  TORCH_CHECK(
      !generator.has_value() || !generator->defined() || result.device() == generator->device(),
      "Expected a '", result.device(), "' generator device but found '", generator->device(), "'");
  at::native::check_supported_max_int_with_precision(n, result);
  result.resize_({n});
  if (n == 0) return result;
  at::Tensor keys = at::empty({n}, result.options().dtype(at::kLong))
                        .random_(std::numeric_limits<int64_t>::lowest(), std::nullopt, generator);
  result.copy_(std::get<1>(keys.sort(/*stable=*/std::optional<bool>(true), 0)));
  return result;
}

// Sampling with replacement (ATen's multinomial handles the other cases by
// exponential races): each draw u ~ U[0, 1) takes the first category whose
// normalised cumulative probability exceeds u, so categories of probability
// 0 are never drawn.
void multinomial_with_replacement_kernel(at::Tensor& result, const at::Tensor& self,
                                         int64_t n_sample, std::optional<at::Generator> gen) {
  // Sums in float for 16-bit probabilities, as the CPU accumulates them.
  at::Tensor rows = self.view({-1, self.size(-1)});
  at::Tensor cdf = rows.cumsum(-1, self.scalar_type() == at::kDouble ? at::kDouble : at::kFloat);
  at::Tensor total = cdf.narrow(-1, cdf.size(-1) - 1, 1);
  // The CPU's checks, in its order, from one read of the device.
  at::Tensor valid = at::stack({self.ge(0).all(), self.isfinite().all(), total.gt(0).all()}).cpu();
  const bool* ok = valid.const_data_ptr<bool>();
  TORCH_CHECK(ok[0], "invalid multinomial distribution (encountering probability entry < 0)");
  TORCH_CHECK(
      ok[1], "invalid multinomial distribution (encountering probability entry = infinity or NaN)");
  TORCH_CHECK(ok[2], "invalid multinomial distribution (sum of probabilities <= 0)");
  at::Tensor u = at::empty({rows.size(0), n_sample}, cdf.options()).uniform_(0, 1, gen);
  // cdf / total ends in exactly 1 (x / x), above every u.
  at::Tensor picks = at::searchsorted(cdf.div(total), u, /*out_int32=*/false, /*right=*/true);
  result.copy_(picks.view(result.sizes()));
}

}  // namespace
}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(multinomial_with_replacement_stub,
                              &torchvulkan::multinomial_with_replacement_kernel)
}  // namespace at::native

namespace torchvulkan {

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("randperm.generator_out", randperm_out);
  // ATen's multinomial checks the arguments and samples without replacement
  // by exponential races (exponential_, div, argmax/topk); with replacement it
  // calls the stub above.
  m.impl("multinomial", at::native::multinomial);
  m.impl("multinomial.out", at::native::multinomial_out);
}

}  // namespace torchvulkan
