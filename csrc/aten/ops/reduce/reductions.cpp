// sum, mean, prod, amax, amin, any, all, aminmax (and its deprecated
// _aminmax): ATen's meta functions shape and type the result; one reduce()
// call computes each. nansum is ATen's own kernel up to its DispatchStub;
// count_nonzero shapes its int64 result here; hash_tensor (the xor of its
// elements' 64-bit forms) checks its mode here, which ATen's meta leaves to
// its kernels.
#include <ATen/TensorMeta.h>
#include <ATen/core/ATen_fwd.h>
#include <ATen/core/Tensor.h>
#include <ATen/native/DispatchStub.h>
#include <ATen/native/ReduceOps.h>
#include <ATen/native/ReduceOpsUtils.h>
#include <ATen/ops/_aminmax_native.h>
#include <ATen/ops/all_meta.h>
#include <ATen/ops/amax_meta.h>
#include <ATen/ops/amin_meta.h>
#include <ATen/ops/aminmax_native.h>
#include <ATen/ops/any_meta.h>
#include <ATen/ops/hash_tensor_meta.h>
#include <ATen/ops/mean_meta.h>
#include <ATen/ops/nansum_native.h>
#include <ATen/ops/prod_meta.h>
#include <ATen/ops/sum_meta.h>
#include <c10/util/OptionalArrayRef.h>
#include <torch/library.h>

#include "aten/ops/reduce/reduce.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;
using Dims = at::OptionalIntArrayRef;
using DType = std::optional<c10::ScalarType>;

// The functional and out= forms of a structured reduction over `dims`.
template <class Meta, class... Args>
at::Tensor reduced(std::string_view op, const at::Tensor& self, Dims dims, const Args&... args) {
  Functional<Meta> meta;
  meta.meta(self, args...);
  reduce(self, dims, meta.outputs_[0], op);
  return meta.outputs_[0];
}

template <class Meta, class... Args>
at::Tensor& reduced_out(std::string_view op, at::Tensor& out, const at::Tensor& self, Dims dims,
                        const Args&... args) {
  Out<Meta> meta(out);
  meta.meta(self, args...);
  reduce(self, dims, out, op);
  return out;
}

at::Tensor sum(const at::Tensor& self, Dims dim, bool keepdim, DType dtype) {
  return reduced<m::structured_sum_dim_IntList>("sum", self, dim, dim, keepdim, dtype);
}
at::Tensor& sum_out(const at::Tensor& self, Dims dim, bool keepdim, DType dtype, at::Tensor& out) {
  return reduced_out<m::structured_sum_dim_IntList>("sum", out, self, dim, dim, keepdim, dtype);
}
at::Tensor mean(const at::Tensor& self, Dims dim, bool keepdim, DType dtype) {
  return reduced<m::structured_mean_dim>("mean", self, dim, dim, keepdim, dtype);
}
at::Tensor& mean_out(const at::Tensor& self, Dims dim, bool keepdim, DType dtype, at::Tensor& out) {
  return reduced_out<m::structured_mean_dim>("mean", out, self, dim, dim, keepdim, dtype);
}
at::Tensor prod_dim(const at::Tensor& self, int64_t dim, bool keepdim, DType dtype) {
  return reduced<m::structured_prod_dim_int>("prod", self, at::IntArrayRef{dim}, dim, keepdim,
                                             dtype);
}
at::Tensor& prod_dim_out(const at::Tensor& self, int64_t dim, bool keepdim, DType dtype,
                         at::Tensor& out) {
  return reduced_out<m::structured_prod_dim_int>("prod", out, self, at::IntArrayRef{dim}, dim,
                                                 keepdim, dtype);
}
at::Tensor prod(const at::Tensor& self, DType dtype) {
  // The full product: the dtype rule of prod.dim_int, over every dim.
  at::Tensor flat = self.reshape({-1});
  return prod_dim(flat, 0, false, dtype);
}
at::Tensor amax(const at::Tensor& self, at::IntArrayRef dim, bool keepdim) {
  return reduced<m::structured_amax>("amax", self, dim, dim, keepdim);
}
at::Tensor& amax_out(const at::Tensor& self, at::IntArrayRef dim, bool keepdim, at::Tensor& out) {
  return reduced_out<m::structured_amax>("amax", out, self, dim, dim, keepdim);
}
at::Tensor amin(const at::Tensor& self, at::IntArrayRef dim, bool keepdim) {
  return reduced<m::structured_amin>("amin", self, dim, dim, keepdim);
}
at::Tensor& amin_out(const at::Tensor& self, at::IntArrayRef dim, bool keepdim, at::Tensor& out) {
  return reduced_out<m::structured_amin>("amin", out, self, dim, dim, keepdim);
}

#define LOGICAL_FORMS(name)                                                                        \
  at::Tensor name##_all(const at::Tensor& self) {                                                  \
    return reduced<m::structured_##name>(#name, self, Dims());                                     \
  }                                                                                                \
  at::Tensor& name##_all_out(const at::Tensor& self, at::Tensor& out) {                            \
    return reduced_out<m::structured_##name>(#name, out, self, Dims());                            \
  }                                                                                                \
  at::Tensor name##_dim(const at::Tensor& self, int64_t dim, bool keepdim) {                       \
    return reduced<m::structured_##name##_dim>(#name, self, at::IntArrayRef{dim}, dim, keepdim);   \
  }                                                                                                \
  at::Tensor& name##_dim_out(const at::Tensor& self, int64_t dim, bool keepdim, at::Tensor& out) { \
    return reduced_out<m::structured_##name##_dim>(#name, out, self, at::IntArrayRef{dim}, dim,    \
                                                   keepdim);                                       \
  }                                                                                                \
  at::Tensor name##_dims(const at::Tensor& self, Dims dim, bool keepdim) {                         \
    return reduced<m::structured_##name##_dims>(#name, self, dim, dim, keepdim);                   \
  }                                                                                                \
  at::Tensor& name##_dims_out(const at::Tensor& self, Dims dim, bool keepdim, at::Tensor& out) {   \
    return reduced_out<m::structured_##name##_dims>(#name, out, self, dim, dim, keepdim);          \
  }

LOGICAL_FORMS(any)
LOGICAL_FORMS(all)

void nansum_kernel(at::TensorIterator& iter) {
  reduce(iter, "nansum");
}

at::Tensor count_nonzero(const at::Tensor& self, at::IntArrayRef dims) {
  auto mask = at::native::make_dim_mask(dims, self.dim());
  at::Tensor out = at::empty(at::native::shape_from_dim_mask(self, mask, false),
                             self.options().dtype(at::kLong));
  reduce(self, dims, out, "count_nonzero");
  return out;
}

void check_hash_mode(int64_t mode) {
  TORCH_CHECK(mode == 0, "Unknown hash_tensor mode: ", mode);
}
// 16-bit floats are read as their int16 bits (reduce.comp's hash_xor_f16
// and _bf16): a driver's float16 conversion may not keep NaN payloads.
void hash_into(const at::Tensor& self, at::IntArrayRef dim, int64_t mode, const at::Tensor& out) {
  check_hash_mode(mode);
  c10::ScalarType type = self.scalar_type();
  if (type == at::kHalf || type == at::kBFloat16)
    reduce(self.view(at::kShort), dim, out, type == at::kHalf ? "hash_xor_f16" : "hash_xor_bf16");
  else
    reduce(self, dim, out, "hash_xor");
}
at::Tensor hash_tensor(const at::Tensor& self, at::IntArrayRef dim, bool keepdim, int64_t mode) {
  Functional<m::structured_hash_tensor> meta;
  meta.meta(self, dim, keepdim, mode);
  hash_into(self, dim, mode, meta.outputs_[0]);
  return meta.outputs_[0];
}
at::Tensor& hash_tensor_out(const at::Tensor& self, at::IntArrayRef dim, bool keepdim, int64_t mode,
                            at::Tensor& out) {
  Out<m::structured_hash_tensor> meta(out);
  meta.meta(self, dim, keepdim, mode);
  hash_into(self, dim, mode, out);
  return out;
}

void aminmax_kernel(const at::Tensor& self, int64_t dim, bool, at::Tensor& min, at::Tensor& max) {
  reduce(self, at::IntArrayRef{dim}, min, "amin");
  reduce(self, at::IntArrayRef{dim}, max, "amax");
}
void aminmax_all_kernel(const at::Tensor& self, at::Tensor& min, at::Tensor& max) {
  reduce(self, Dims(), min, "amin");
  reduce(self, Dims(), max, "amax");
}

std::tuple<at::Tensor, at::Tensor> aminmax_functional(const at::Tensor& self,
                                                      std::optional<int64_t> dim, bool keepdim) {
  Functional<at::native::structured_aminmax_out> op;
  op.meta(self, dim, keepdim);
  op.impl(self, dim, keepdim, op.outputs_[0], op.outputs_[1]);
  return {op.outputs_[0], op.outputs_[1]};
}
std::tuple<at::Tensor&, at::Tensor&> aminmax_out(const at::Tensor& self, std::optional<int64_t> dim,
                                                 bool keepdim, at::Tensor& min, at::Tensor& max) {
  at::native::check_scalar_type_device_layout_equal(min, self);
  at::native::check_scalar_type_device_layout_equal(max, self);
  auto [lo, hi] = aminmax_functional(self, dim, keepdim);
  at::native::resize_output(min, lo.sizes());
  at::native::resize_output(max, hi.sizes());
  min.copy_(lo);
  max.copy_(hi);
  return {min, max};
}

}  // namespace
}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(nansum_stub, &torchvulkan::nansum_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(aminmax_stub, &torchvulkan::aminmax_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(aminmax_allreduce_stub, &torchvulkan::aminmax_all_kernel)
}  // namespace at::native

namespace torchvulkan {

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("sum.dim_IntList", sum);
  m.impl("sum.IntList_out", sum_out);
  m.impl("mean.dim", mean);
  m.impl("mean.out", mean_out);
  m.impl("prod.dim_int", prod_dim);
  m.impl("prod.int_out", prod_dim_out);
  m.impl("prod", prod);
  m.impl("amax", amax);
  m.impl("amax.out", amax_out);
  m.impl("amin", amin);
  m.impl("amin.out", amin_out);
  m.impl("any", any_all);
  m.impl("any.all_out", any_all_out);
  m.impl("any.dim", any_dim);
  m.impl("any.out", any_dim_out);
  m.impl("any.dims", any_dims);
  m.impl("any.dims_out", any_dims_out);
  m.impl("all", all_all);
  m.impl("all.all_out", all_all_out);
  m.impl("all.dim", all_dim);
  m.impl("all.out", all_dim_out);
  m.impl("all.dims", all_dims);
  m.impl("all.dims_out", all_dims_out);
  m.impl("nansum", at::native::nansum);
  m.impl("nansum.out", at::native::nansum_out);
  m.impl("count_nonzero.dim_IntList", count_nonzero);
  m.impl("hash_tensor", hash_tensor);
  m.impl("hash_tensor.out", hash_tensor_out);
  m.impl("aminmax", aminmax_functional);
  m.impl("aminmax.out", aminmax_out);
  // The deprecated names: ATen's warn once and call aminmax.
  m.impl("_aminmax", at::native::_aminmax_all);
  m.impl("_aminmax.dim", at::native::_aminmax);
}

}  // namespace torchvulkan
