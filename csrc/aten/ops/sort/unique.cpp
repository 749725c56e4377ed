// torch.unique (_unique2, always sorted, as the CPU's sort-based kernel) and
// unique_consecutive (flattened): with runs of equal values in x (x sorted
// by a stable native sort for unique), a run starts where x differs from
// its predecessor (so NaNs, never equal, are each their own run):
//   values  = the runs' first elements
//   inverse = each element's run number (cumsum of the starts, less one)
//   counts  = elements per run
// The output length is data-dependent: it is read back once (as nonzero
// does), which waits for the device, as on CUDA.
#include <ATen/TensorOperators.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/sort.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

namespace torchvulkan {
namespace {

// values, inverse (of x's elements, in x's order) and counts of the runs of
// the 1-D `x`.
std::tuple<at::Tensor, at::Tensor, at::Tensor> runs(const at::Tensor& x) {
  at::Tensor starts = at::ones({x.numel()}, x.options().dtype(at::kBool));
  if (x.numel() > 1)
    starts.narrow(0, 1, x.numel() - 1)
        .copy_(x.narrow(0, 1, x.numel() - 1) != x.narrow(0, 0, x.numel() - 1));
  at::Tensor run = starts.cumsum(0) - 1;
  at::Tensor values = x.masked_select(starts);
  at::Tensor counts =
      at::zeros({values.numel()}, run.options()).scatter_add_(0, run, at::ones_like(run));
  return {values, run, counts};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> unique2(const at::Tensor& self, bool /*sorted*/,
                                                       bool return_inverse, bool return_counts) {
  at::Tensor flat = self.reshape({-1});
  at::Tensor empty = at::empty({0}, self.options().dtype(at::kLong));
  auto [sorted, order] = at::sort(flat, /*stable=*/true, 0, /*descending=*/false);
  auto [values, run, counts] = runs(sorted);
  at::Tensor inverse = empty;
  if (return_inverse)
    inverse = at::empty({flat.numel()}, run.options()).scatter_(0, order, run).view(self.sizes());
  return {values, inverse, return_counts ? counts : empty};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> unique_consecutive(const at::Tensor& self,
                                                                  bool return_inverse,
                                                                  bool return_counts,
                                                                  std::optional<int64_t> dim) {
  TORCH_CHECK_NOT_IMPLEMENTED(!dim.has_value() || self.dim() <= 1,
                              "unique_consecutive with dim on a tensor of more than one dimension "
                              "is not supported on the vulkan device");
  at::Tensor flat = self.reshape({-1});
  at::Tensor empty = at::empty({0}, self.options().dtype(at::kLong));
  auto [values, run, counts] = runs(flat);
  return {values, return_inverse ? run.view(self.sizes()) : empty, return_counts ? counts : empty};
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_unique2", unique2);
  m.impl("unique_consecutive", unique_consecutive);
}

}  // namespace torchvulkan
