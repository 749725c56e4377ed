// torch.unique (_unique2, always sorted, as the CPU's sort-based kernel; and
// _unique, its older form without counts) and
// unique_consecutive (flattened): with runs of equal values in x (x sorted
// by a stable native sort for unique), a run starts where x differs from
// its predecessor (so NaNs, never equal, are each their own run):
//   values  = the runs' first elements
//   inverse = each element's run number (cumsum of the starts, less one)
//   counts  = elements per run
// Along a dimension (unique_dim, unique_dim_consecutive) the elements are
// the slices along it, as the rows of an [n, m] matrix; unique_dim sorts
// them lexicographically through ranks (row_ranks). The output length is
// data-dependent: it is read back once (as nonzero does), which waits for
// the device, as on CUDA.
#include <ATen/TensorOperators.h>
#include <ATen/WrapDimUtils.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/full.h>
#include <ATen/ops/nonzero.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/scatter_reduce.h>
#include <ATen/ops/sort.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

#include <algorithm>
#include <optional>
#include <tuple>
#include <vector>

namespace torchvulkan {
namespace {

// The runs of equal rows of `rows` ([n, m]; a 1-D tensor's elements as [n,
// 1]): each run's first row, each row's run number (in rows' order) and
// each run's length. A run starts where a row differs from its predecessor
// in any column.
std::tuple<at::Tensor, at::Tensor, at::Tensor> runs(const at::Tensor& rows) {
  int64_t n = rows.size(0);
  at::Tensor starts = at::ones({n}, rows.options().dtype(at::kBool));
  if (n > 1) {
    at::Tensor differs = rows.narrow(0, 1, n - 1) != rows.narrow(0, 0, n - 1);
    starts.narrow(0, 1, n - 1).copy_(rows.size(1) == 1 ? differs.squeeze(1) : differs.any(1));
  }
  at::Tensor run = starts.cumsum(0) - 1;
  at::Tensor first = at::nonzero(starts).squeeze(1);
  at::Tensor counts =
      at::zeros({first.numel()}, run.options()).scatter_add_(0, run, at::ones_like(run));
  return {first, run, counts};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> unique2(const at::Tensor& self, bool /*sorted*/,
                                                       bool return_inverse, bool return_counts) {
  at::Tensor flat = self.reshape({-1});
  at::Tensor empty = at::empty({0}, self.options().dtype(at::kLong));
  auto [sorted, order] = at::sort(flat, /*stable=*/true, 0, /*descending=*/false);
  auto [first, run, counts] = runs(sorted.unsqueeze(1));
  at::Tensor values = sorted.index_select(0, first), inverse = empty;
  if (return_inverse)
    inverse = at::empty({flat.numel()}, run.options()).scatter_(0, order, run).view(self.sizes());
  return {values, inverse, return_counts ? counts : empty};
}

std::tuple<at::Tensor, at::Tensor> unique(const at::Tensor& self, bool sorted,
                                          bool return_inverse) {
  auto [values, inverse, counts] = unique2(self, sorted, return_inverse, false);
  return {values, inverse};
}

// The dense rank of each element of the [n, columns] `keys` within its
// column (equal values share one; a rank counts the distinct smaller
// values), every column in one batched stable sort along dim 0.
at::Tensor dense_ranks(const at::Tensor& keys) {
  auto [sorted, order] = at::sort(keys, /*stable=*/true, 0, /*descending=*/false);
  int64_t n = keys.size(0);
  at::Tensor steps = at::zeros(keys.sizes(), order.options());
  if (n > 1)
    steps.narrow(0, 1, n - 1).copy_(sorted.narrow(0, 1, n - 1) != sorted.narrow(0, 0, n - 1));
  return at::empty_like(order).scatter_(0, order, steps.cumsum(0));
}

// Each row's dense rank among the rows of the [n, m] `rows` in
// lexicographic order: the columns' ranks, then the ranks of column pairs
// (a * n + b orders as (a, b) for ranks below n, and fits int64 for n below
// 3e9), halving the columns until one is left: about log2(m) batched sorts
// where sorting by one column after another would take m.
at::Tensor row_ranks(const at::Tensor& rows) {
  int64_t n = rows.size(0);
  if (rows.size(1) == 0) return at::zeros({n}, rows.options().dtype(at::kLong));
  at::Tensor r = dense_ranks(rows);
  while (r.size(1) > 1) {
    if (r.size(1) % 2) r = at::cat({r, at::zeros({n, 1}, r.options())}, 1);
    r = dense_ranks(r.slice(1, 0, std::nullopt, 2) * n + r.slice(1, 1, std::nullopt, 2));
  }
  return r.squeeze(1);
}

// The CPU's checks for unique along `dim`, and its result when the
// dimension is empty; the slices along it as rows otherwise.
std::optional<std::tuple<at::Tensor, at::Tensor, at::Tensor>> empty_along(const at::Tensor& self,
                                                                          int64_t d) {
  if (self.size(d) == 0) {
    TORCH_CHECK(std::count(self.sizes().begin(), self.sizes().end(), 0) == 1,
                "Number of zero sized dimensions is more than one, so unique cannot be applied ");
    at::Tensor none = at::empty({0}, self.options().dtype(at::kLong));
    return std::make_tuple(at::empty(self.sizes(), self.options()), none, none);
  }
  TORCH_CHECK(
      self.numel() > 0,
      "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
  return std::nullopt;
}

// The distinct slices along d from the rows of `rows` ([n, m]; first[k] is
// the row of the k-th), shaped as self's slices.
at::Tensor slices(const at::Tensor& self, int64_t d, const at::Tensor& rows,
                  const at::Tensor& first) {
  std::vector<int64_t> sizes = self.movedim(d, 0).sizes().vec();
  sizes[0] = first.numel();
  return rows.index_select(0, first).view(sizes).movedim(0, d);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> unique_along(const at::Tensor& self, int64_t dim,
                                                            bool /*sorted*/,
                                                            bool /*return_inverse*/,
                                                            bool /*return_counts*/) {
  int64_t d = at::maybe_wrap_dim(dim, self.dim());
  if (auto empty = empty_along(self, d)) return *empty;
  int64_t n = self.size(d);
  at::Tensor rows = self.movedim(d, 0).reshape({n, self.numel() / n});
  at::Tensor rank = row_ranks(rows);
  int64_t distinct = rank.max().item<int64_t>() + 1;
  // Each distinct row's first occurrence.
  at::Tensor first = at::full({distinct}, n, rank.options())
                         .scatter_reduce_(0, rank, at::arange(n, rank.options()), "amin");
  at::Tensor counts =
      at::zeros({distinct}, rank.options()).scatter_add_(0, rank, at::ones_like(rank));
  return {slices(self, d, rows, first), rank, counts};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> unique_consecutive_along(const at::Tensor& self,
                                                                        int64_t dim,
                                                                        bool /*return_inverse*/,
                                                                        bool /*return_counts*/) {
  int64_t d = at::maybe_wrap_dim(dim, self.dim());
  if (auto empty = empty_along(self, d)) return *empty;
  int64_t n = self.size(d);
  at::Tensor rows = self.movedim(d, 0).reshape({n, self.numel() / n});
  auto [first, run, counts] = runs(rows);
  return {slices(self, d, rows, first), run, counts};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> unique_consecutive(const at::Tensor& self,
                                                                  bool return_inverse,
                                                                  bool return_counts,
                                                                  std::optional<int64_t> dim) {
  if (dim.has_value() && self.dim() > 1)
    return unique_consecutive_along(self, *dim, return_inverse, return_counts);
  at::Tensor flat = self.reshape({-1});
  at::Tensor empty = at::empty({0}, self.options().dtype(at::kLong));
  auto [first, run, counts] = runs(flat.unsqueeze(1));
  return {flat.index_select(0, first), return_inverse ? run.view(self.sizes()) : empty,
          return_counts ? counts : empty};
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_unique2", unique2);
  m.impl("_unique", unique);
  m.impl("unique_consecutive", unique_consecutive);
  m.impl("unique_dim", unique_along);
  m.impl("unique_dim_consecutive", unique_consecutive_along);
}

}  // namespace torchvulkan
