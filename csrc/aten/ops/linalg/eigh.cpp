// linalg.eigh and eigvalsh on the device: ATen's own structured _linalg_eigh
// (argument checks, outputs, the error check) runs as on the CPU, through
// linalg_eigh_stub, which this fills: the symmetric matrix from the chosen
// triangle, cyclic Jacobi rotations (shaders/linalg/jacobi.comp, one
// workgroup per matrix), then the eigenvalues sorted ascending with their
// vectors, as LAPACK returns them. Eigenvectors are unique up to sign (and
// rotation within repeated eigenvalues); Jacobi's signs are not syevd's.
// float32 and float64.
#include <ATen/TensorOperators.h>
#include <ATen/native/BatchLinearAlgebra.h>
#include <ATen/ops/_linalg_eigh_native.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <torch/library.h>

#include <string>
#include <tuple>
#include <vector>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/ops/linalg/jacobi.h"
#include "aten/ops/linalg/matrices.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

void eigh_kernel(const at::Tensor& values, const at::Tensor& vectors, const at::Tensor& infos,
                 bool upper, bool compute_vectors) {
  linalg::check_dtype(vectors, "linalg.eigh");
  infos.zero_();
  if (vectors.numel() == 0) return;
  int64_t n = vectors.size(-1);
  at::Tensor A = vectors.reshape({-1, n, n});
  at::Tensor a = (upper ? A.triu() + A.triu(1).mT() : A.tril() + A.tril(-1).mT()).contiguous();
  at::Tensor v = compute_vectors ? at::empty_like(a) : at::Tensor();
  linalg::jacobi("eigh", a, v);
  auto [sorted, order] = a.diagonal(0, -2, -1).sort(/*stable=*/true, -1, /*descending=*/false);
  values.copy_(sorted.view(values.sizes()));
  if (compute_vectors)
    vectors.copy_(v.gather(-1, order.unsqueeze(-2).expand_as(v)).view(vectors.sizes()));
}

std::tuple<at::Tensor, at::Tensor> linalg_eigh(const at::Tensor& A, c10::string_view uplo,
                                               bool compute_v) {
  Functional<at::native::structured__linalg_eigh_out> op;
  op.meta(A, uplo, compute_v);
  op.impl(A, uplo, compute_v, op.outputs_[0], op.outputs_[1]);
  return {op.outputs_[0], op.outputs_[1]};
}

std::tuple<at::Tensor&, at::Tensor&> linalg_eigh_out(const at::Tensor& A, c10::string_view uplo,
                                                     bool compute_v, at::Tensor& L, at::Tensor& V) {
  Out<at::native::structured__linalg_eigh_out> op(L, V);
  op.meta(A, uplo, compute_v);
  op.impl(A, uplo, compute_v, L, V);
  return {L, V};
}

}  // namespace
}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(linalg_eigh_stub, &torchvulkan::eigh_kernel)
}  // namespace at::native

namespace torchvulkan {

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_linalg_eigh", linalg_eigh);
  m.impl("_linalg_eigh.eigenvalues", linalg_eigh_out);
}

}  // namespace torchvulkan
