// lu_unpack and linalg_lu through ATen's own structured implementations:
// L (unit lower) and U (upper) from the factors by tril and triu, P from
// the pivots as a permutation matrix by scatter, and for linalg_lu the
// factorization itself (lu.cpp), all on the device. The one stub they
// dispatch, unpack_pivots_stub (composing the row swaps into a
// permutation), is the kernel here (shaders/linalg/unpack_pivots.comp).
#include <ATen/native/BatchLinearAlgebra.h>
#include <ATen/ops/linalg_lu_native.h>
#include <ATen/ops/lu_unpack_native.h>
#include <torch/library.h>

#include "aten/launch.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

// One invocation per matrix: its permutation row (int64) and pivots row (int32).
void unpack_pivots_kernel(at::TensorIterator& iter, int64_t dim_size, int64_t max_pivot) {
  launch_elementwise("unpack_pivots", iter,
                     {static_cast<uint64_t>(dim_size), static_cast<uint64_t>(max_pivot)});
}

using Tensors = std::tuple<at::Tensor, at::Tensor, at::Tensor>;
using TensorRefs = std::tuple<at::Tensor&, at::Tensor&, at::Tensor&>;

Tensors lu_unpack(const at::Tensor& LU, const at::Tensor& pivots, bool unpack_data,
                  bool unpack_pivots) {
  Functional<at::native::structured_lu_unpack_out> op;
  op.meta(LU, pivots, unpack_data, unpack_pivots);
  op.impl(LU, pivots, unpack_data, unpack_pivots, op.outputs_[0], op.outputs_[1], op.outputs_[2]);
  return {op.outputs_[0], op.outputs_[1], op.outputs_[2]};
}

TensorRefs lu_unpack_out(const at::Tensor& LU, const at::Tensor& pivots, bool unpack_data,
                         bool unpack_pivots, at::Tensor& P, at::Tensor& L, at::Tensor& U) {
  Out<at::native::structured_lu_unpack_out> op(P, L, U);
  op.meta(LU, pivots, unpack_data, unpack_pivots);
  op.impl(LU, pivots, unpack_data, unpack_pivots, P, L, U);
  return {P, L, U};
}

Tensors linalg_lu(const at::Tensor& A, bool pivot) {
  Functional<at::native::structured_linalg_lu_out> op;
  op.meta(A, pivot);
  op.impl(A, pivot, op.outputs_[0], op.outputs_[1], op.outputs_[2]);
  return {op.outputs_[0], op.outputs_[1], op.outputs_[2]};
}

TensorRefs linalg_lu_out(const at::Tensor& A, bool pivot, at::Tensor& P, at::Tensor& L,
                         at::Tensor& U) {
  Out<at::native::structured_linalg_lu_out> op(P, L, U);
  op.meta(A, pivot);
  op.impl(A, pivot, P, L, U);
  return {P, L, U};
}

}  // namespace
}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(unpack_pivots_stub, &torchvulkan::unpack_pivots_kernel)
}  // namespace at::native

namespace torchvulkan {

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("lu_unpack", lu_unpack);
  m.impl("lu_unpack.out", lu_unpack_out);
  m.impl("linalg_lu", linalg_lu);
  m.impl("linalg_lu.out", linalg_lu_out);
}

}  // namespace torchvulkan
