// linalg.lstsq: ATen's own linalg_lstsq_out (checks, driver names, output
// shapes, residuals, error reporting) runs as on the CPU and CUDA, through
// lstsq_stub, which this fills with the native factorizations:
//   gels (CUDA's only driver): full-rank A by QR, as LAPACK's gels. Tall A:
//     A = QR, x = R^-1 (Q^T b). Wide A (the minimum-norm solution):
//     A^T = QR, x = Q R^-T b.
//   gelsy (the default off CUDA, rank-revealing): the minimum-norm
//     least-squares solution by SVD, x = V S^+ U^T b with the singular values
//     at most rcond * max(S) dropped, as gelsd does. LAPACK's gelsy takes the
//     rank from a pivoted QR's condition estimate instead: rank and solution
//     agree wherever that estimate and the singular values agree on which
//     directions are negligible.
// float32 and float64, as the factorizations.
#include <ATen/TensorOperators.h>
#include <ATen/native/BatchLinearAlgebra.h>
#include <ATen/ops/argmax.h>
#include <ATen/ops/geqrf.h>
#include <ATen/ops/linalg_lstsq_native.h>
#include <ATen/ops/linalg_solve_triangular.h>
#include <ATen/ops/linalg_svd.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/ormqr.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros_like.h>
#include <torch/library.h>

#include <string>

#include "aten/ops/linalg/matrices.h"

namespace torchvulkan {
namespace {

// LAPACK's gels info: the 1-based index of R's first zero diagonal entry
// (A rank-deficient), else 0.
void report_zero_pivots(const at::Tensor& r, at::Tensor& infos) {
  at::Tensor zero = r.diagonal(0, -2, -1) == 0;
  at::Tensor first = at::where(zero.any(-1), zero.to(at::kInt).argmax(-1) + 1, 0);
  infos.copy_(first.reshape(infos.sizes()));
}

// b[..., :n, :] := x, the least-squares (m >= n) or minimum-norm (m < n)
// solution of A x = b[..., :m, :], for full-rank A.
void gels(const at::Tensor& a, at::Tensor& b, at::Tensor& infos) {
  int64_t m = a.size(-2), n = a.size(-1), k = std::min(m, n);
  auto [qr, tau] = at::geqrf(m >= n ? a : a.mT());
  at::Tensor r = qr.narrow(-2, 0, k);  // upper triangle: R (k x k)
  report_zero_pivots(r, infos);
  if (m >= n) {
    // Q^T b's last m - n rows stay in b: ATen's residuals are their squares' sum.
    b.copy_(at::ormqr(qr, tau, b, /*left=*/true, /*transpose=*/true));
    b.narrow(-2, 0, n).copy_(at::linalg_solve_triangular(r, b.narrow(-2, 0, n), /*upper=*/true));
    return;
  }
  at::Tensor y = at::zeros_like(b);  // [R^-T b; 0], n rows
  y.narrow(-2, 0, m).copy_(
      at::linalg_solve_triangular(r.mT(), b.narrow(-2, 0, m), /*upper=*/false));
  b.copy_(at::ormqr(qr, tau, y, /*left=*/true, /*transpose=*/false));
}

// b[..., :n, :] := V S^+ U^T b[..., :m, :] and A's numerical rank.
void by_svd(const at::Tensor& a, at::Tensor& b, at::Tensor& rank, double rcond) {
  int64_t m = a.size(-2), n = a.size(-1);
  auto [U, S, Vh] = at::linalg_svd(a, /*full_matrices=*/false);
  at::Tensor kept = S > S.amax(-1, /*keepdim=*/true) * rcond;
  at::Tensor inverse = at::where(kept, S.reciprocal(), 0).unsqueeze(-1);
  at::Tensor x = at::matmul(Vh.mT(), inverse * at::matmul(U.mT(), b.narrow(-2, 0, m)));
  b.narrow(-2, 0, n).copy_(x);
  rank.copy_(kept.sum(-1).reshape(rank.sizes()));
}

// Off the CPU, ATen lets only gels (named) and gelsy (the default) through;
// neither returns singular values.
void lstsq_kernel(const at::Tensor& a, at::Tensor& b, at::Tensor& rank,
                  at::Tensor& /*singular_values*/, at::Tensor& infos, double rcond,
                  std::string driver) {
  linalg::check_dtype(a, "linalg.lstsq");
  if (a.numel() == 0 || b.numel() == 0) {  // LAPACK's quick return: b := 0, rank 0
    b.zero_();
    rank.zero_();
    return;
  }
  if (driver == "gels") {
    gels(a, b, infos);
  } else {
    by_svd(a, b, rank, rcond);
  }
}

}  // namespace
}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(lstsq_stub, &torchvulkan::lstsq_kernel)
}  // namespace at::native

namespace torchvulkan {

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("linalg_lstsq.out", at::native::linalg_lstsq_out);
}

}  // namespace torchvulkan
