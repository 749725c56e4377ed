// median, nanmedian, kthvalue and mode: one stable sort along the
// dimension (the native sort), then the element at a rank, with its index:
//   median:    rank (n - 1) / 2, or the first NaN's when the slice has any
//   nanmedian: rank (non-NaN count - 1) / 2 (NaN when all are NaN)
//   kthvalue:  rank k - 1 (NaN sorts last, as on the CPU)
//   mode:      the last rank of the first longest run of equal values, so
//              the smallest of equally frequent values, as the CPU's scan
//              of its sorted slice picks (NaNs, never equal, are runs of 1)
// With a stable sort, ties resolve as the CPU's median does (the middle of
// equal values in input order); kthvalue's CPU kernel (quickselect) picks
// among ties arbitrarily, so only its values are defined across devices.
#include <ATen/TensorOperators.h>
#include <ATen/WrapDimUtils.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/floor_divide.h>
#include <ATen/ops/full.h>
#include <ATen/ops/isnan.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/sort.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

namespace torchvulkan {
namespace {

enum class Rank { median, nanmedian, kth, mode };

// Writes the element of each slice along `dim` at its rank (and its index).
void select_rank(const at::Tensor& self, int64_t dim, bool keepdim, Rank rank, int64_t k,
                 const char* name, at::Tensor& values, at::Tensor& indices) {
  int64_t d = at::maybe_wrap_dim(dim, self.dim());
  int64_t n = self.dim() == 0 ? 1 : self.size(d);
  TORCH_CHECK_INDEX(n > 0, name, "(): Expected reduction dim ", d, " to have non-zero size.");
  if (rank == Rank::kth)
    TORCH_CHECK(k >= 1 && k <= n, "kthvalue(): selected number k out of range for dimension ", d);
  std::vector<int64_t> sizes = self.sizes().vec();
  if (self.dim() > 0) {
    if (keepdim)
      sizes[d] = 1;
    else
      sizes.erase(sizes.begin() + d);
  }
  at::native::resize_output(values, sizes);
  at::native::resize_output(indices, sizes);
  if (self.numel() == 0) return;
  if (self.dim() == 0) {
    values.copy_(self);
    indices.zero_();
    return;
  }
  auto [sorted, order] = at::sort(self, /*stable=*/true, d, /*descending=*/false);
  std::vector<int64_t> kept = self.sizes().vec();
  kept[d] = 1;
  at::Tensor at_rank;
  if (rank == Rank::mode) {
    // A run's length so far at each rank: the rank less its run's start
    // (the last rank where the sorted values changed, a running max).
    std::vector<int64_t> along(self.dim(), 1);
    along[d] = n;
    at::Tensor ranks = at::arange(n, order.options()).view(along).expand_as(order);
    at::Tensor starts = at::ones_like(sorted, sorted.options().dtype(at::kBool));
    if (n > 1)
      starts.narrow(d, 1, n - 1).copy_(sorted.narrow(d, 1, n - 1) != sorted.narrow(d, 0, n - 1));
    at::Tensor run_start = std::get<0>(at::where(starts, ranks, 0).cummax(d));
    at_rank = (ranks - run_start).argmax(d, /*keepdim=*/true);
  } else if (rank == Rank::kth || !at::isFloatingType(self.scalar_type())) {
    int64_t r = rank == Rank::kth ? k - 1 : (n - 1) / 2;
    at_rank = at::full(kept, r, order.options());
  } else {
    at::Tensor nans = at::isnan(self).sum(d, /*keepdim=*/true);
    at_rank = rank == Rank::median ? at::where(nans > 0, n - nans, (n - 1) / 2)
                                   : at::floor_divide((n - nans - 1).clamp_min(0), 2);
  }
  at::Tensor value = sorted.gather(d, at_rank), index = order.gather(d, at_rank);
  values.copy_(keepdim ? value : value.squeeze(d));
  indices.copy_(keepdim ? index : index.squeeze(d));
}

std::tuple<at::Tensor&, at::Tensor&> median_dim_out(const at::Tensor& self, int64_t dim,
                                                    bool keepdim, at::Tensor& values,
                                                    at::Tensor& indices) {
  select_rank(self, dim, keepdim, Rank::median, 0, "median", values, indices);
  return {values, indices};
}

std::tuple<at::Tensor&, at::Tensor&> nanmedian_dim_out(const at::Tensor& self, int64_t dim,
                                                       bool keepdim, at::Tensor& values,
                                                       at::Tensor& indices) {
  select_rank(self, dim, keepdim, Rank::nanmedian, 0, "nanmedian", values, indices);
  return {values, indices};
}

std::tuple<at::Tensor&, at::Tensor&> kthvalue_out(const at::Tensor& self, int64_t k, int64_t dim,
                                                  bool keepdim, at::Tensor& values,
                                                  at::Tensor& indices) {
  select_rank(self, dim, keepdim, Rank::kth, k, "kthvalue", values, indices);
  return {values, indices};
}

std::tuple<at::Tensor&, at::Tensor&> mode_out(const at::Tensor& self, int64_t dim, bool keepdim,
                                              at::Tensor& values, at::Tensor& indices) {
  TORCH_CHECK(values.scalar_type() == self.scalar_type(), "mode(): expected values of dtype ",
              self.scalar_type(), " but got ", values.scalar_type());
  TORCH_CHECK(indices.scalar_type() == at::kLong, "mode(): expected indices of dtype Long but got ",
              indices.scalar_type());
  select_rank(self, dim, keepdim, Rank::mode, 0, "mode", values, indices);
  return {values, indices};
}

std::tuple<at::Tensor, at::Tensor> mode(const at::Tensor& self, int64_t dim, bool keepdim) {
  at::Tensor values = at::empty({0}, self.options()),
             indices = at::empty({0}, self.options().dtype(at::kLong));
  mode_out(self, dim, keepdim, values, indices);
  return {values, indices};
}

// The median of all elements, NaN-aware as the dim forms.
at::Tensor whole(const at::Tensor& self, Rank rank, const char* name) {
  TORCH_CHECK(self.numel() > 0, name, "() input tensor cannot be empty");
  at::Tensor values = at::empty({0}, self.options()),
             indices = at::empty({0}, self.options().dtype(at::kLong));
  select_rank(self.reshape({-1}), 0, false, rank, 0, name, values, indices);
  return values;
}

at::Tensor median(const at::Tensor& self) {
  return whole(self, Rank::median, "median");
}

at::Tensor nanmedian(const at::Tensor& self) {
  return whole(self, Rank::nanmedian, "nanmedian");
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("median", median);
  m.impl("median.dim_values", median_dim_out);
  m.impl("nanmedian", nanmedian);
  m.impl("nanmedian.dim_values", nanmedian_dim_out);
  m.impl("kthvalue.values", kthvalue_out);
  m.impl("mode", mode);
  m.impl("mode.values", mode_out);
}

}  // namespace torchvulkan
