// repeat_interleave(repeats): index i written repeats[i] times, the
// indices torch.repeat_interleave's composite then gathers with. Position
// j of the result is the number of running repeat totals at or below j
// (searchsorted over the cumulative sum), so one cumsum and one search;
// the total is read back unless output_size gives it, as on CUDA.
#include <ATen/TensorOperators.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/searchsorted.h>
#include <torch/library.h>

namespace torchvulkan {
namespace {

at::Tensor repeat_interleave(const at::Tensor& repeats, std::optional<c10::SymInt> output_size) {
  TORCH_CHECK(repeats.dim() == 1, "repeat_interleave only accept 1D vector as repeat");
  TORCH_CHECK(repeats.scalar_type() == at::kLong || repeats.scalar_type() == at::kInt,
              "repeats has to be Long or Int tensor");
  if (repeats.size(0) == 0) return at::empty({0}, repeats.options());
  at::Tensor ends = repeats.cumsum(0, at::kLong);
  int64_t total;
  if (output_size.has_value()) {
    total = output_size->expect_int();
  } else {
    TORCH_CHECK((repeats >= 0).all().item<bool>(), "repeats can not be negative");
    total = ends[-1].item<int64_t>();
  }
  at::Tensor positions = at::arange(total, ends.options());
  return at::searchsorted(ends, positions, repeats.scalar_type() == at::kInt, /*right=*/true);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("repeat_interleave.Tensor", repeat_interleave);
}

}  // namespace torchvulkan
