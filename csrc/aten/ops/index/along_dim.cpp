// index_add, index_copy and index_fill_: rows along one dimension, as the
// native scatters (the index, one position per slice of `dim`, broadcast
// over the other dimensions):
//   index_add:  out = self; out.select(dim, index[i]) += alpha * source.select(dim, i)
//   index_copy: out = self; out.select(dim, index[i])  = source.select(dim, i)
//   index_fill: self.select(dim, index[i]) = value
//   index_reduce: out = self; out.select(dim, index[i]) = reduce(it,
//                 source.select(dim, i)), reduce one of prod, mean, amax,
//                 amin, with or without self's values (scatter_reduce's
//                 rules)
// ATen's meta functions check index_add's, index_copy's and index_reduce's
// arguments; those of index_fill_ are the CPU's.
#include <ATen/TensorOperators.h>
#include <ATen/ops/index_add_meta.h>
#include <ATen/ops/index_copy_meta.h>
#include <ATen/ops/index_reduce_meta.h>
#include <ATen/ops/where.h>
#include <torch/library.h>

#include <vector>

#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

// `index` placed along `dim` of a tensor of `sizes` (its length there),
// broadcast over the other dimensions.
at::Tensor along(const at::Tensor& index, int64_t dim, at::IntArrayRef sizes) {
  std::vector<int64_t> shape(sizes.size(), 1), expanded = sizes.vec();
  if (sizes.empty()) return index.to(at::kLong).reshape({});
  shape[dim] = index.numel();
  expanded[dim] = index.numel();
  return index.to(at::kLong).reshape(shape).expand(expanded);
}

void add_rows(const at::Tensor& out, const at::Tensor& self, int64_t dim, const at::Tensor& index,
              const at::Tensor& source, const at::Scalar& alpha) {
  if (!out.is_same(self)) out.copy_(self);
  if (index.numel() == 0) return;
  const_cast<at::Tensor&>(out).scatter_add_(dim, along(index, dim, source.sizes()),
                                            alpha.equal(1) ? source : source * alpha);
}

at::Tensor index_add(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                     const at::Tensor& source, const at::Scalar& alpha) {
  Functional<m::structured_index_add> meta;
  auto pre = meta.meta(self, dim, index, source, alpha);
  add_rows(meta.outputs_[0], self, pre.dim, index, source, alpha);
  return meta.outputs_[0];
}

at::Tensor& index_add_(at::Tensor& self, int64_t dim, const at::Tensor& index,
                       const at::Tensor& source, const at::Scalar& alpha) {
  InPlace<m::structured_index_add> meta(self);
  auto pre = meta.meta(self, dim, index, source, alpha);
  add_rows(self, self, pre.dim, index, source, alpha);
  return self;
}

at::Tensor& index_add_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                          const at::Tensor& source, const at::Scalar& alpha, at::Tensor& out) {
  Out<m::structured_index_add> meta(out);
  auto pre = meta.meta(self, dim, index, source, alpha);
  add_rows(out, self, pre.dim, index, source, alpha);
  return out;
}

void copy_rows(const at::Tensor& out, const at::Tensor& self, int64_t dim, const at::Tensor& index,
               const at::Tensor& source) {
  if (!out.is_same(self)) out.copy_(self);
  if (index.numel() == 0) return;
  const_cast<at::Tensor&>(out).scatter_(dim, along(index, dim, source.sizes()), source);
}

at::Tensor index_copy(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                      const at::Tensor& source) {
  Functional<m::structured_index_copy> meta;
  auto pre = meta.meta(self, dim, index, source);
  copy_rows(meta.outputs_[0], self, pre.dim, index, source);
  return meta.outputs_[0];
}

at::Tensor& index_copy_(at::Tensor& self, int64_t dim, const at::Tensor& index,
                        const at::Tensor& source) {
  InPlace<m::structured_index_copy> meta(self);
  auto pre = meta.meta(self, dim, index, source);
  copy_rows(self, self, pre.dim, index, source);
  return self;
}

at::Tensor& index_copy_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                           const at::Tensor& source, at::Tensor& out) {
  Out<m::structured_index_copy> meta(out);
  auto pre = meta.meta(self, dim, index, source);
  copy_rows(out, self, pre.dim, index, source);
  return out;
}

void reduce_rows(const at::Tensor& out, const at::Tensor& self, int64_t dim,
                 const at::Tensor& index, const at::Tensor& source, c10::string_view reduce,
                 bool include_self) {
  if (!out.is_same(self)) out.copy_(self);
  if (index.numel() == 0) return;
  const_cast<at::Tensor&>(out).scatter_reduce_(dim, along(index, dim, source.sizes()), source,
                                               reduce, include_self);
}

at::Tensor index_reduce(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                        const at::Tensor& source, c10::string_view reduce, bool include_self) {
  Functional<m::structured_index_reduce> meta;
  auto pre = meta.meta(self, dim, index, source, reduce, include_self);
  reduce_rows(meta.outputs_[0], self, pre.dim, index, source, reduce, include_self);
  return meta.outputs_[0];
}

at::Tensor& index_reduce_(at::Tensor& self, int64_t dim, const at::Tensor& index,
                          const at::Tensor& source, c10::string_view reduce, bool include_self) {
  InPlace<m::structured_index_reduce> meta(self);
  auto pre = meta.meta(self, dim, index, source, reduce, include_self);
  reduce_rows(self, self, pre.dim, index, source, reduce, include_self);
  return self;
}

at::Tensor& index_reduce_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                             const at::Tensor& source, c10::string_view reduce, bool include_self,
                             at::Tensor& out) {
  Out<m::structured_index_reduce> meta(out);
  auto pre = meta.meta(self, dim, index, source, reduce, include_self);
  reduce_rows(out, self, pre.dim, index, source, reduce, include_self);
  return out;
}

// The CPU's checks of index_fill_; returns the wrapped dim.
int64_t fill_dim(const at::Tensor& self, int64_t dim, const at::Tensor& index) {
  TORCH_CHECK(index.dim() <= 1, "Index has to be a vector/scalar");
  TORCH_CHECK(index.scalar_type() == at::kLong, "index_fill_(): Expected dtype int64 for index.");
  return c10::maybe_wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
}

// index_fill_ takes negative indices from the end, as the CPU; the scatter
// does not.
at::Tensor from_end(const at::Tensor& index, int64_t size) {
  return at::where(index < 0, index + size, index);
}

at::Tensor& index_fill_scalar(at::Tensor& self, int64_t dim, const at::Tensor& index,
                              const at::Scalar& value) {
  int64_t d = fill_dim(self, dim, index);
  if (index.numel() == 0) return self;
  std::vector<int64_t> sizes = self.sizes().vec();
  if (!sizes.empty()) sizes[d] = index.numel();
  return self.scatter_(d, along(from_end(index, self.dim() == 0 ? 1 : self.size(d)), d, sizes),
                       value);
}

at::Tensor& index_fill_tensor(at::Tensor& self, int64_t dim, const at::Tensor& index,
                              const at::Tensor& value) {
  TORCH_CHECK(value.dim() == 0,
              "index_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s).");
  int64_t d = fill_dim(self, dim, index);
  if (index.numel() == 0) return self;
  std::vector<int64_t> sizes = self.sizes().vec();
  if (!sizes.empty()) sizes[d] = index.numel();
  // A value on the device stays there: scattered from a broadcast view.
  return self.scatter_(d, along(from_end(index, self.dim() == 0 ? 1 : self.size(d)), d, sizes),
                       value.to(self.options()).expand(sizes));
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, lib) {
  lib.impl("index_add", index_add);
  lib.impl("index_add_", index_add_);
  lib.impl("index_add.out", index_add_out);
  lib.impl("index_copy", index_copy);
  lib.impl("index_copy_", index_copy_);
  lib.impl("index_copy.out", index_copy_out);
  lib.impl("index_reduce", index_reduce);
  lib.impl("index_reduce_", index_reduce_);
  lib.impl("index_reduce.out", index_reduce_out);
  lib.impl("index_fill_.int_Scalar", index_fill_scalar);
  lib.impl("index_fill_.int_Tensor", index_fill_tensor);
}

}  // namespace torchvulkan
