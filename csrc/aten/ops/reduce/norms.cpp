// linalg_vector_norm and norm (whose ATen kernel calls linalg_vector_norm.out):
// ATen's structured kernels check the order, dims and dtype, treat the
// reductions over size-1 dims and build the reduction; their norm_stub lands
// in one reduce() launch.
#include <ATen/native/DispatchStub.h>
#include <ATen/native/ReduceOps.h>
#include <ATen/ops/linalg_vector_norm_native.h>
#include <ATen/ops/norm_native.h>
#include <torch/library.h>

#include <cmath>

#include "aten/ops/reduce/reduce.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

using Dims = at::OptionalIntArrayRef;
using DType = std::optional<c10::ScalarType>;
using OptScalar = std::optional<c10::Scalar>;

void norm_kernel(at::TensorIterator& iter, const c10::Scalar& ord) {
  double p = ord.toDouble();
  if (std::isinf(p)) {
    reduce(iter, p > 0 ? "norm_inf" : "norm_neginf");
  } else {
    reduce(iter, "norm", p);
  }
}

at::Tensor linalg_vector_norm(const at::Tensor& self, const c10::Scalar& ord, Dims dim,
                              bool keepdim, DType dtype) {
  Functional<at::native::structured_linalg_vector_norm_out> op;
  op.meta(self, ord, dim, keepdim, dtype);
  op.impl(self, ord, dim, keepdim, dtype, op.outputs_[0]);
  return op.outputs_[0];
}
at::Tensor& linalg_vector_norm_out(const at::Tensor& self, const c10::Scalar& ord, Dims dim,
                                   bool keepdim, DType dtype, at::Tensor& out) {
  Out<at::native::structured_linalg_vector_norm_out> op(out);
  op.meta(self, ord, dim, keepdim, dtype);
  op.impl(self, ord, dim, keepdim, dtype, out);
  return out;
}

at::OptionalScalarRef ref(const OptScalar& p) {
  return p ? at::OptionalScalarRef(&*p) : at::OptionalScalarRef();
}

at::Tensor norm(const at::Tensor& self, const OptScalar& p, at::IntArrayRef dim, bool keepdim) {
  Functional<at::native::structured_norm_out> op;
  op.meta(self, ref(p), dim, keepdim);
  op.impl(self, ref(p), dim, keepdim, op.outputs_[0]);
  return op.outputs_[0];
}
at::Tensor& norm_out(const at::Tensor& self, const OptScalar& p, at::IntArrayRef dim, bool keepdim,
                     at::Tensor& out) {
  Out<at::native::structured_norm_out> op(out);
  op.meta(self, ref(p), dim, keepdim);
  op.impl(self, ref(p), dim, keepdim, out);
  return out;
}
at::Tensor norm_dtype(const at::Tensor& self, const OptScalar& p, at::IntArrayRef dim, bool keepdim,
                      c10::ScalarType dtype) {
  Functional<at::native::structured_norm_dtype_out> op;
  op.meta(self, ref(p), dim, keepdim, dtype);
  op.impl(self, ref(p), dim, keepdim, dtype, op.outputs_[0]);
  return op.outputs_[0];
}
at::Tensor& norm_dtype_out(const at::Tensor& self, const OptScalar& p, at::IntArrayRef dim,
                           bool keepdim, c10::ScalarType dtype, at::Tensor& out) {
  Out<at::native::structured_norm_dtype_out> op(out);
  op.meta(self, ref(p), dim, keepdim, dtype);
  op.impl(self, ref(p), dim, keepdim, dtype, out);
  return out;
}

}  // namespace
}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(norm_stub, &torchvulkan::norm_kernel)
}  // namespace at::native

namespace torchvulkan {

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("linalg_vector_norm", linalg_vector_norm);
  m.impl("linalg_vector_norm.out", linalg_vector_norm_out);
  m.impl("norm.ScalarOpt_dim", norm);
  m.impl("norm.out", norm_out);
  m.impl("norm.ScalarOpt_dim_dtype", norm_dtype);
  m.impl("norm.dtype_out", norm_dtype_out);
}

}  // namespace torchvulkan
