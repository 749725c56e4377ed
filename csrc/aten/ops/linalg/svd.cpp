// linalg.svd (and svdvals, pinv, matrix_norm 2/nuc through them): ATen's
// own structured _linalg_svd (checks, outputs, empty matrices) runs as on the
// CPU, through svd_stub, which this fills by one-sided Jacobi
// (shaders/linalg/jacobi.comp): on A, or on A^T when A is wide, so the
// columns rotated are at most as many as the rows,
//   A V = [sigma_1 u_1, ..., sigma_k u_k]
// sorted by descending sigma. U's columns where sigma is negligible (rank
// deficiency) and the extra columns of full_matrices come from a QR of the
// thin U (native): Q's columns there are orthonormal to the others.
// Singular vectors are unique up to sign (and rotation within repeated
// singular values); Jacobi's signs are not gesdd's. float32 and float64.
#include <ATen/TensorOperators.h>
#include <ATen/native/BatchLinearAlgebra.h>
#include <ATen/ops/_linalg_svd_native.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/linalg_qr.h>
#include <ATen/ops/linalg_vector_norm.h>
#include <ATen/ops/where.h>
#include <torch/library.h>

#include <limits>
#include <optional>
#include <string_view>
#include <tuple>

#include "aten/ops/linalg/jacobi.h"
#include "aten/ops/linalg/matrices.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

// The columns of `t` ([B, rows, cols]) in the order `order` ([B, cols]).
at::Tensor columns_in(const at::Tensor& t, const at::Tensor& order) {
  return t.gather(-1, order.unsqueeze(-2).expand_as(t));
}

void svd_kernel(const at::Tensor& A, bool full_matrices, bool compute_uv,
                const std::optional<std::string_view>& /*driver*/, const at::Tensor& U,
                const at::Tensor& S, const at::Tensor& Vh, const at::Tensor& info) {
  linalg::check_dtype(A, "linalg.svd");
  info.zero_();
  int64_t m = A.size(-2), n = A.size(-1);
  bool wide = m < n;
  int64_t rows = wide ? n : m, cols = wide ? m : n;  // rows >= cols
  // Jacobi rotates `a` in place, and A is the caller's tensor (ATen leaves
  // the working copy to the backend): a copy, made once (a wide A's
  // transpose is copied by the reshape already).
  at::Tensor a = (wide ? A.mT() : A).reshape({-1, rows, cols});
  a = a.is_alias_of(A) ? a.clone(at::MemoryFormat::Contiguous) : a.contiguous();
  at::Tensor v = compute_uv ? at::empty({a.size(0), cols, cols}, a.options()) : at::Tensor();
  linalg::jacobi("svd", a, v);
  at::Tensor norms = at::linalg_vector_norm(a, 2, {-2});
  auto [sigma, order] = norms.sort(/*stable=*/true, -1, /*descending=*/true);
  S.copy_(sigma.view(S.sizes()));
  if (!compute_uv) return;
  // Thin left vectors, with Q's columns where sigma is negligible.
  double eps = A.scalar_type() == at::kDouble ? std::numeric_limits<double>::epsilon()
                                              : std::numeric_limits<float>::epsilon();
  at::Tensor kept = sigma > sigma.narrow(-1, 0, 1) * (eps * rows);
  at::Tensor safe = at::where(kept, sigma, at::ones_like(sigma)).unsqueeze(-2);
  at::Tensor thin = columns_in(a, order) / safe * kept.unsqueeze(-2);
  at::Tensor q = std::get<0>(at::linalg_qr(thin, full_matrices ? "complete" : "reduced"));
  at::Tensor left = q.clone();
  left.narrow(-1, 0, cols).copy_(at::where(kept.unsqueeze(-2), thin, q.narrow(-1, 0, cols)));
  at::Tensor right = columns_in(v, order);  // V, [B, cols, cols]
  std::vector<int64_t> batch(A.sizes().begin(), A.sizes().end() - 2);
  auto shaped = [&](const at::Tensor& t) {
    std::vector<int64_t> sizes = batch;
    sizes.insert(sizes.end(), {t.size(-2), t.size(-1)});
    return t.view(sizes);
  };
  // A = left diag(sigma) right^T, or for wide A, A^T's: A = right diag(sigma) left^T.
  U.copy_(shaped(wide ? right : left));
  Vh.copy_(shaped(wide ? left : right).mT());
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> linalg_svd(const at::Tensor& A, bool full_matrices,
                                                          bool compute_uv,
                                                          std::optional<c10::string_view> driver) {
  Functional<at::native::structured__linalg_svd_out> op;
  op.meta(A, full_matrices, compute_uv, driver);
  op.impl(A, full_matrices, compute_uv, driver, op.outputs_[0], op.outputs_[1], op.outputs_[2]);
  return {op.outputs_[0], op.outputs_[1], op.outputs_[2]};
}

std::tuple<at::Tensor&, at::Tensor&, at::Tensor&> linalg_svd_out(
    const at::Tensor& A, bool full_matrices, bool compute_uv,
    std::optional<c10::string_view> driver, at::Tensor& U, at::Tensor& S, at::Tensor& Vh) {
  Out<at::native::structured__linalg_svd_out> op(U, S, Vh);
  op.meta(A, full_matrices, compute_uv, driver);
  op.impl(A, full_matrices, compute_uv, driver, U, S, Vh);
  return {U, S, Vh};
}

}  // namespace
}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(svd_stub, &torchvulkan::svd_kernel)
}  // namespace at::native

namespace torchvulkan {

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_linalg_svd", linalg_svd);
  m.impl("_linalg_svd.U", linalg_svd_out);
}

}  // namespace torchvulkan
