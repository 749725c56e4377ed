// sort (stable and not: the device's sort is always stable), topk, and
// through ATen's composites argsort and msort. ATen's meta functions check
// the arguments and size the outputs; the rows along `dim` are sorted as
// keys (network.h), and the values are gathered at the sorted positions.
#include <ATen/MemoryOverlap.h>
#include <ATen/WrapDimUtils.h>
#include <ATen/ops/gather.h>
#include <ATen/ops/sort_meta.h>
#include <ATen/ops/topk_meta.h>
#include <torch/library.h>

#include "aten/ops/sort/network.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

// values and indices = the first `count` elements of self's rows along
// `dim` in ascending (or descending) stable order.
void select_sorted(const at::Tensor& self, int64_t dim, int64_t count, bool descending,
                   at::Tensor& values, at::Tensor& indices) {
  if (values.numel() == 0) return;
  if (self.dim() == 0) {
    values.copy_(self);
    indices.zero_();
    return;
  }
  at::Tensor rows = self.movedim(dim, -1);
  at::Tensor keys = sort::keys(rows, descending);
  int64_t n = self.size(dim);
  at::Tensor positions = sort::smallest(keys.view({-1, n}), count);
  std::vector<int64_t> shape = rows.sizes().vec();
  shape.back() = count;
  at::Tensor order = positions.to(at::kLong).reshape(shape).movedim(-1, dim);
  // An output that shares memory with self would be read while written.
  bool shared = at::get_overlap_status(values, self) != at::MemOverlapStatus::No;
  at::gather_out(values, shared ? self.clone() : self, dim, order);
  indices.copy_(order);
}

void sort_into(const at::Tensor& self, int64_t dim, bool descending, at::Tensor& values,
               at::Tensor& indices) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  select_sorted(self, dim, self.dim() ? self.size(dim) : 1, descending, values, indices);
}

std::tuple<at::Tensor, at::Tensor> sort_stable(const at::Tensor& self, std::optional<bool> stable,
                                               int64_t dim, bool descending) {
  Functional<at::meta::structured_sort_stable> op;
  op.meta(self, stable, dim, descending);
  sort_into(self, dim, descending, op.outputs_[0], op.outputs_[1]);
  return {op.outputs_[0], op.outputs_[1]};
}

std::tuple<at::Tensor&, at::Tensor&> sort_stable_out(const at::Tensor& self,
                                                     std::optional<bool> stable, int64_t dim,
                                                     bool descending, at::Tensor& values,
                                                     at::Tensor& indices) {
  Out<at::meta::structured_sort_stable> op(values, indices);
  op.meta(self, stable, dim, descending);
  sort_into(self, dim, descending, values, indices);
  return {values, indices};
}

// topk: the k largest (smallest) are the first k of a descending (ascending)
// sort; `sorted` = false allows any order, and sorted is one.
void topk_into(const at::Tensor& self, int64_t k, int64_t dim, bool largest, at::Tensor& values,
               at::Tensor& indices) {
  select_sorted(self, c10::maybe_wrap_dim(dim, self.dim(), true), k, largest, values, indices);
}

std::tuple<at::Tensor, at::Tensor> topk(const at::Tensor& self, int64_t k, int64_t dim,
                                        bool largest, bool sorted) {
  Functional<at::meta::structured_topk> op;
  op.meta(self, k, dim, largest, sorted);
  topk_into(self, k, dim, largest, op.outputs_[0], op.outputs_[1]);
  return {op.outputs_[0], op.outputs_[1]};
}

std::tuple<at::Tensor&, at::Tensor&> topk_out(const at::Tensor& self, int64_t k, int64_t dim,
                                              bool largest, bool sorted, at::Tensor& values,
                                              at::Tensor& indices) {
  Out<at::meta::structured_topk> op(values, indices);
  op.meta(self, k, dim, largest, sorted);
  topk_into(self, k, dim, largest, values, indices);
  return {values, indices};
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("sort.stable", sort_stable);
  m.impl("sort.values_stable", sort_stable_out);
  m.impl("topk", topk);
  m.impl("topk.values", topk_out);
}

}  // namespace torchvulkan
