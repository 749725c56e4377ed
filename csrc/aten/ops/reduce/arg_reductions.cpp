// argmax, argmin, max.dim, min.dim (values and indices) and the full max/min.
#include <ATen/core/ATen_fwd.h>
#include <ATen/ops/argmax_meta.h>
#include <ATen/ops/argmin_meta.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/max_meta.h>
#include <ATen/ops/min_meta.h>
#include <torch/library.h>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/ops/reduce/reduce.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

struct Args {
  uint64_t meta, source, values, indices, index_strides;
};

// indices (and values, if defined) = arg-op of self along `dim` (all dims flattened when absent).
void arg_reduce(const char* op, const at::Tensor& self, std::optional<int64_t> dim,
                const at::Tensor& values, const at::Tensor& indices) {
  if ((values.defined() && !values.is_contiguous()) || !indices.is_contiguous()) {
    at::Tensor v = values.defined() ? at::empty(values.sizes(), values.options()) : at::Tensor();
    at::Tensor i = at::empty(indices.sizes(), indices.options());
    arg_reduce(op, self, dim, v, i);
    if (values.defined()) values.copy_(v);
    indices.copy_(i);
    return;
  }
  at::OptionalIntArrayRef dims = dim ? at::OptionalIntArrayRef(*dim) : at::OptionalIntArrayRef();
  std::vector<int64_t> dim_list;
  if (dim) dim_list = {*dim};
  ReduceLayout layout = reduce_layout(self, dim_list, values.defined() ? values : indices, false);
  if (layout.outputs == 0) return;
  // The indices' own byte strides for the kept dims, after the layout's words.
  ReduceLayout index_layout = reduce_layout(self, dim_list, indices, false);
  int64_t kept = layout.meta[3];
  Args args{0, address_of(self), address_of(values), address_of(indices), layout.meta.size()};
  layout.meta.insert(layout.meta.end(), index_layout.meta.begin() + 5 + 2 * kept,
                     index_layout.meta.begin() + 5 + 3 * kept);
  rt::Device& dev = device_for(indices);
  const rt::Kernel& kernel =
      dev.pipelines().get(std::string("arg_reduce.") + op + "." + dtype_name(self.scalar_type()));
  std::vector<rt::Access> accesses = {span_of(self, false), span_of(indices, true)};
  if (values.defined()) accesses.push_back(span_of(values, true));
  dev.stream().dispatch(kernel, &args, sizeof(args), layout.meta.data(),
                        static_cast<uint32_t>(layout.meta.size() * sizeof(int64_t)),
                        static_cast<uint64_t>(layout.outputs) * kernel.workgroup_size, accesses);
}

template <class Meta>
at::Tensor arg(const char* op, const at::Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  Functional<Meta> meta;
  meta.meta(self, dim, keepdim);
  arg_reduce(op, self, dim, {}, meta.outputs_[0]);
  return meta.outputs_[0];
}
template <class Meta>
at::Tensor& arg_out(const char* op, const at::Tensor& self, std::optional<int64_t> dim,
                    bool keepdim, at::Tensor& out) {
  Out<Meta> meta(out);
  meta.meta(self, dim, keepdim);
  arg_reduce(op, self, dim, {}, out);
  return out;
}

at::Tensor argmax(const at::Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg<m::structured_argmax>("argmax", self, dim, keepdim);
}
at::Tensor& argmax_out(const at::Tensor& self, std::optional<int64_t> dim, bool keepdim,
                       at::Tensor& out) {
  return arg_out<m::structured_argmax>("argmax", self, dim, keepdim, out);
}
at::Tensor argmin(const at::Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg<m::structured_argmin>("argmin", self, dim, keepdim);
}
at::Tensor& argmin_out(const at::Tensor& self, std::optional<int64_t> dim, bool keepdim,
                       at::Tensor& out) {
  return arg_out<m::structured_argmin>("argmin", self, dim, keepdim, out);
}

// max.dim / min.dim: values and indices; ATen's meta shapes both outputs.
template <class Meta>
std::tuple<at::Tensor, at::Tensor> with_indices(const char* op, const at::Tensor& self, int64_t dim,
                                                bool keepdim) {
  Functional<Meta> meta;
  int64_t wrapped = meta.meta(self, dim, keepdim).dim;
  arg_reduce(op, self, self.dim() ? std::optional<int64_t>(wrapped) : std::nullopt,
             meta.outputs_[0], meta.outputs_[1]);
  return {meta.outputs_[0], meta.outputs_[1]};
}

std::tuple<at::Tensor, at::Tensor> max_dim(const at::Tensor& self, int64_t dim, bool keepdim) {
  return with_indices<m::structured_max_dim>("argmax", self, dim, keepdim);
}
std::tuple<at::Tensor, at::Tensor> min_dim(const at::Tensor& self, int64_t dim, bool keepdim) {
  return with_indices<m::structured_min_dim>("argmin", self, dim, keepdim);
}
std::tuple<at::Tensor&, at::Tensor&> max_dim_out(const at::Tensor& self, int64_t dim, bool keepdim,
                                                 at::Tensor& values, at::Tensor& indices) {
  auto [v, i] = max_dim(self, dim, keepdim);
  at::native::resize_output(values, v.sizes());
  at::native::resize_output(indices, i.sizes());
  values.copy_(v);
  indices.copy_(i);
  return {values, indices};
}
std::tuple<at::Tensor&, at::Tensor&> min_dim_out(const at::Tensor& self, int64_t dim, bool keepdim,
                                                 at::Tensor& values, at::Tensor& indices) {
  auto [v, i] = min_dim(self, dim, keepdim);
  at::native::resize_output(values, v.sizes());
  at::native::resize_output(indices, i.sizes());
  values.copy_(v);
  indices.copy_(i);
  return {values, indices};
}

// The full max()/min(): the extreme value of all elements.
at::Tensor extreme(const at::Tensor& self, const char* op, const char* name) {
  TORCH_CHECK(self.numel() > 0, name,
              "(): Expected reduction dim to be specified for input.numel() == 0. "
              "Specify the reduction dim with the 'dim' argument.");
  at::Tensor out = at::empty({}, self.options());
  reduce(self, at::OptionalIntArrayRef(), out, op);
  return out;
}
at::Tensor max_all(const at::Tensor& self) {
  return extreme(self, "amax", "max");
}
at::Tensor min_all(const at::Tensor& self) {
  return extreme(self, "amin", "min");
}
at::Tensor& max_all_out(const at::Tensor& self, at::Tensor& out) {
  TORCH_CHECK(self.scalar_type() == out.scalar_type(), "max(): Expected out tensor to have dtype ",
              self.scalar_type(), ", but got ", out.scalar_type(), " instead");
  at::native::resize_output(out, {});
  out.copy_(max_all(self));
  return out;
}
at::Tensor& min_all_out(const at::Tensor& self, at::Tensor& out) {
  TORCH_CHECK(self.scalar_type() == out.scalar_type(), "min(): Expected out tensor to have dtype ",
              self.scalar_type(), ", but got ", out.scalar_type(), " instead");
  at::native::resize_output(out, {});
  out.copy_(min_all(self));
  return out;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("argmax", argmax);
  m.impl("argmax.out", argmax_out);
  m.impl("argmin", argmin);
  m.impl("argmin.out", argmin_out);
  m.impl("max.dim", max_dim);
  m.impl("max.dim_max", max_dim_out);
  m.impl("min.dim", min_dim);
  m.impl("min.dim_min", min_dim_out);
  m.impl("max", max_all);
  m.impl("min", min_all);
  m.impl("max.unary_out", max_all_out);
  m.impl("min.unary_out", min_all_out);
}

}  // namespace torchvulkan
