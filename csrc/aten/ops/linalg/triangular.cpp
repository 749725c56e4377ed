// The older triangular and Cholesky solvers, on linalg_solve_triangular's
// native substitution (lu.cpp):
//   triangular_solve(b, A): op(A) X = b, op(A) = A or A^T, with A's copy;
//   cholesky_solve(b, F): A X = b for A = L L^T (or U^T U) given its factor F,
//     two triangular solves (ATen's cholesky_solve broadcasts, then calls
//     _cholesky_solve_helper);
//   cholesky_inverse(F): A^-1, cholesky_solve of the identity.
#include <ATen/native/LinearAlgebraUtils.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/eye.h>
#include <ATen/ops/linalg_solve_triangular.h>
#include <ATen/ops/triangular_solve_meta.h>
#include <torch/library.h>

#include <tuple>

#include "aten/ops/linalg/matrices.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

void triangular_solve_into(const at::Tensor& b, const at::Tensor& A, bool upper, bool transpose,
                           bool unitriangular, const at::Tensor& X, const at::Tensor& M) {
  M.copy_(A.expand(M.sizes()));
  if (X.numel() == 0) return;
  // A^T of an upper triangle is a lower one.
  X.copy_(at::linalg_solve_triangular(transpose ? A.mT() : A, b, upper != transpose,
                                      /*left=*/true, unitriangular));
}

std::tuple<at::Tensor&, at::Tensor&> triangular_solve_out(const at::Tensor& b, const at::Tensor& A,
                                                          bool upper, bool transpose,
                                                          bool unitriangular, at::Tensor& X,
                                                          at::Tensor& M) {
  Out<m::structured_triangular_solve> meta(X, M);
  meta.meta(b, A, upper, transpose, unitriangular);
  triangular_solve_into(b, A, upper, transpose, unitriangular, X, M);
  return {X, M};
}

std::tuple<at::Tensor, at::Tensor> triangular_solve(const at::Tensor& b, const at::Tensor& A,
                                                    bool upper, bool transpose,
                                                    bool unitriangular) {
  Functional<m::structured_triangular_solve> meta;
  meta.meta(b, A, upper, transpose, unitriangular);
  triangular_solve_into(b, A, upper, transpose, unitriangular, meta.outputs_[0], meta.outputs_[1]);
  return {meta.outputs_[0], meta.outputs_[1]};
}

// b and F broadcast already (ATen's cholesky_solve).
at::Tensor cholesky_solve_helper(const at::Tensor& b, const at::Tensor& F, bool upper) {
  at::Tensor L = upper ? F.mT() : F;  // A = L L^T either way
  at::Tensor y = at::linalg_solve_triangular(L, b, /*upper=*/false);
  return at::linalg_solve_triangular(L.mT(), y, /*upper=*/true);
}

at::Tensor inverse_from_cholesky(const at::Tensor& F, bool upper) {
  linalg::check_dtype(F, "cholesky_inverse");
  at::native::squareCheckInputs(F, "cholesky_inverse");
  at::Tensor identity = at::eye(F.size(-1), F.options()).expand(F.sizes());
  return cholesky_solve_helper(identity, F, upper);
}

at::Tensor& cholesky_inverse_out(const at::Tensor& F, bool upper, at::Tensor& out) {
  at::Tensor result = inverse_from_cholesky(F, upper);
  TORCH_CHECK(out.scalar_type() == result.scalar_type(),
              "cholesky_inverse: Expected out tensor to have dtype ", result.scalar_type(),
              ", but got ", out.scalar_type(), " instead");
  at::native::resize_output(out, result.sizes());
  out.copy_(result);
  return out;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("triangular_solve", triangular_solve);
  m.impl("triangular_solve.X", triangular_solve_out);
  m.impl("_cholesky_solve_helper", cholesky_solve_helper);
  m.impl("cholesky_inverse", inverse_from_cholesky);
  m.impl("cholesky_inverse.out", cholesky_inverse_out);
}

}  // namespace torchvulkan
