// The LU family on the device: linalg_lu_factor_ex (shaders/linalg/
// lu_factor.comp, getf2's column steps with partial pivoting, or none as
// CUDA allows) and linalg_lu_solve (lu_solve.comp, getrs's substitutions),
// and from them, as the CPU composes them:
//   det(A)        = sign(P) * prod(diag(U))
//   slogdet(A)    = (sign(P) * prod(sign(diag(U))), sum(log|diag(U)|))
//   solve(A, B)   = lu_solve(lu_factor(A), B)
//   inv(A)        = solve(A, I)
// and linalg_solve_triangular on the same substitution kernel.
// where sign(P) = (-1)^(rows swapped). ATen's meta functions check the
// arguments and make the outputs (LU F-contiguous, pivots and info int32).
// float32 and float64, as the CPU; singular matrices give info > 0 (the
// first zero pivot) and infinities or NaNs, as LAPACK's.
#include <ATen/TensorOperators.h>
#include <ATen/native/LinearAlgebraUtils.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/_linalg_check_errors.h>
#include <ATen/ops/_linalg_det_meta.h>
#include <ATen/ops/_linalg_slogdet_meta.h>
#include <ATen/ops/_linalg_solve_ex_meta.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/linalg_inv_ex_meta.h>
#include <ATen/ops/linalg_lu_factor_ex.h>
#include <ATen/ops/linalg_lu_factor_ex_meta.h>
#include <ATen/ops/linalg_lu_solve.h>
#include <ATen/ops/linalg_lu_solve_meta.h>
#include <ATen/ops/linalg_solve_ex.h>
#include <ATen/ops/prod.h>
#include <torch/library.h>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/ops/linalg/matrices.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;
using linalg::check_dtype;
using linalg::flat_batches;

struct FactorArgs {
  uint64_t lu, pivots, info, batches;
  int64_t m, n, batch_stride, row_stride, col_stride, pivots_stride;
  uint32_t pivot, pad;
};

// LU (A's copy) factored in place; pivots and info written.
void factor(const at::Tensor& LU, const at::Tensor& pivots, const at::Tensor& info, bool pivot) {
  bool copied_lu, copied_piv, copied_info;
  at::Tensor lu = flat_batches(LU, copied_lu);
  at::Tensor piv = linalg::contiguous_flat(pivots, {-1, pivots.size(-1)}, copied_piv);
  at::Tensor inf = linalg::contiguous_flat(info, {-1}, copied_info);
  FactorArgs args{address_of(lu), address_of(piv), address_of(inf), uint64_t(lu.size(0)),
                  lu.size(1),     lu.size(2),      lu.stride(0),    lu.stride(1),
                  lu.stride(2),   piv.stride(0),   uint32_t(pivot), 0};
  std::vector<rt::Access> accesses = {span_of(lu, true), span_of(piv, true), span_of(inf, true)};
  linalg::launch_groups("lu_factor.lu", lu, args, args.batches, accesses);
  if (copied_lu) LU.copy_(lu.view(LU.sizes()));
  if (copied_piv) pivots.copy_(piv.view(pivots.sizes()));
  if (copied_info) info.copy_(inf.view(info.sizes()));
}

void lu_factor_into(const at::Tensor& A, bool pivot, bool check_errors, const at::Tensor& LU,
                    const at::Tensor& pivots, const at::Tensor& info) {
  check_dtype(A, "linalg.lu_factor");
  if (A.numel() == 0) {
    info.zero_();
    return;
  }
  if (!LU.is_same(A)) LU.copy_(A);
  factor(LU, pivots, info, pivot);
  if (check_errors) at::_linalg_check_errors(info, "torch.linalg.lu_factor_ex", A.dim() == 2);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> linalg_lu_factor_ex(const at::Tensor& A, bool pivot,
                                                                   bool check_errors) {
  Functional<m::structured_linalg_lu_factor_ex> meta;
  meta.meta(A, pivot, check_errors);
  lu_factor_into(A, pivot, check_errors, meta.outputs_[0], meta.outputs_[1], meta.outputs_[2]);
  return {meta.outputs_[0], meta.outputs_[1], meta.outputs_[2]};
}

std::tuple<at::Tensor&, at::Tensor&, at::Tensor&> linalg_lu_factor_ex_out(
    const at::Tensor& A, bool pivot, bool check_errors, at::Tensor& LU, at::Tensor& pivots,
    at::Tensor& info) {
  Out<m::structured_linalg_lu_factor_ex> meta(LU, pivots, info);
  meta.meta(A, pivot, check_errors);
  lu_factor_into(A, pivot, check_errors, LU, pivots, info);
  return {LU, pivots, info};
}

struct SolveArgs {
  uint64_t lu, pivots, x, batches;
  int64_t n, nrhs, lu_batch, lu_row, lu_col, pivots_stride, x_batch, x_row, x_col;
  uint32_t transposed, lower, unit, pad;
};

// result (holding B; T's batch dims broadcast to its) := the solve of
// shaders/linalg/lu_solve.comp's `op`: "lu" (T = A's LU factors with
// `pivots`) or "triangular" (one triangle of T), read transposed when
// `transposed`.
void solve_in_place(const char* op, const at::Tensor& T, const at::Tensor& pivots,
                    const at::Tensor& result, bool transposed, bool lower = false,
                    bool unit = false) {
  at::IntArrayRef batch = result.sizes().slice(0, result.dim() - 2);
  bool copied_x;
  at::Tensor x = flat_batches(result, copied_x);
  at::Tensor t = linalg::batched(T, batch);
  at::Tensor piv = pivots.defined() ? linalg::batched_pivots(pivots, batch) : at::Tensor();
  SolveArgs args{address_of(t),
                 address_of(piv),
                 address_of(x),
                 uint64_t(x.size(0)),
                 x.size(1),
                 x.size(2),
                 t.stride(0),
                 t.stride(1),
                 t.stride(2),
                 piv.defined() ? piv.stride(0) : 0,
                 x.stride(0),
                 x.stride(1),
                 x.stride(2),
                 uint32_t(transposed),
                 uint32_t(lower),
                 uint32_t(unit),
                 0};
  std::vector<rt::Access> accesses = {span_of(t, false), span_of(x, true)};
  if (piv.defined()) accesses.push_back(span_of(piv, false));
  linalg::launch_groups(std::string("lu_solve.") + op, x, args, args.batches * uint64_t(args.nrhs),
                        accesses);
  if (copied_x) result.copy_(x.view(result.sizes()));
}

// linalg_lu_solve's implementation (the CPU's: left = false solves the
// transposed system for X^T).
void lu_solve_into(const at::Tensor& LU, const at::Tensor& pivots, const at::Tensor& B, bool left,
                   bool adjoint, const at::Tensor& result) {
  check_dtype(LU, "linalg.lu_solve");
  if (result.numel() == 0) return;
  at::Tensor out = left ? result : result.mT();
  if (!out.is_same(B)) out.copy_(left ? B : B.mT());
  solve_in_place("lu", LU, pivots, out, left ? adjoint : !adjoint);
}

at::Tensor linalg_lu_solve(const at::Tensor& LU, const at::Tensor& pivots, const at::Tensor& B,
                           bool left, bool adjoint) {
  Functional<m::structured_linalg_lu_solve> meta;
  meta.meta(LU, pivots, B, left, adjoint);
  lu_solve_into(LU, pivots, B, left, adjoint, meta.outputs_[0]);
  return meta.outputs_[0];
}

at::Tensor& linalg_lu_solve_out(const at::Tensor& LU, const at::Tensor& pivots, const at::Tensor& B,
                                bool left, bool adjoint, at::Tensor& result) {
  Out<m::structured_linalg_lu_solve> meta(result);
  meta.meta(LU, pivots, B, left, adjoint);
  lu_solve_into(LU, pivots, B, left, adjoint, result);
  return result;
}

// sign(P): -1 to the number of rows the pivots swapped.
at::Tensor permutation_sign(const at::Tensor& pivots) {
  at::Tensor swaps =
      (at::arange(1, pivots.size(-1) + 1, pivots.options()) != pivots).sum(-1, false, at::kLong);
  return 1 - 2 * swaps.remainder(2);
}

// The factors det and slogdet use: A's, or its transpose's when A is
// contiguous (det(A^T) = det(A); lu_factor wants F-contiguous input), as
// the CPU does.
void factor_for_det(const at::Tensor& A, const at::Tensor& LU, const at::Tensor& pivots) {
  at::Tensor info = at::empty({0}, A.options().dtype(at::kInt));
  at::linalg_lu_factor_ex_out(const_cast<at::Tensor&>(LU), const_cast<at::Tensor&>(pivots), info,
                              A.is_contiguous() ? A.mT() : A);
}

void det_into(const at::Tensor& A, const at::Tensor& result, const at::Tensor& LU,
              const at::Tensor& pivots) {
  factor_for_det(A, LU, pivots);
  at::mul_out(const_cast<at::Tensor&>(result), permutation_sign(pivots),
              at::prod(LU.diagonal(0, -2, -1), -1));
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> linalg_det(const at::Tensor& A) {
  Functional<m::structured__linalg_det> meta;
  meta.meta(A);
  det_into(A, meta.outputs_[0], meta.outputs_[1], meta.outputs_[2]);
  return {meta.outputs_[0], meta.outputs_[1], meta.outputs_[2]};
}

std::tuple<at::Tensor&, at::Tensor&, at::Tensor&> linalg_det_out(const at::Tensor& A,
                                                                 at::Tensor& result, at::Tensor& LU,
                                                                 at::Tensor& pivots) {
  Out<m::structured__linalg_det> meta(result, LU, pivots);
  meta.meta(A);
  det_into(A, result, LU, pivots);
  return {result, LU, pivots};
}

void slogdet_into(const at::Tensor& A, const at::Tensor& sign, const at::Tensor& logabsdet,
                  const at::Tensor& LU, const at::Tensor& pivots) {
  factor_for_det(A, LU, pivots);
  at::Tensor diagonal = LU.diagonal(0, -2, -1);
  at::mul_out(const_cast<at::Tensor&>(sign), diagonal.sgn().prod(-1), permutation_sign(pivots));
  at::sum_out(const_cast<at::Tensor&>(logabsdet), diagonal.abs().log(), -1);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor> linalg_slogdet(const at::Tensor& A) {
  Functional<m::structured__linalg_slogdet> meta;
  meta.meta(A);
  slogdet_into(A, meta.outputs_[0], meta.outputs_[1], meta.outputs_[2], meta.outputs_[3]);
  return {meta.outputs_[0], meta.outputs_[1], meta.outputs_[2], meta.outputs_[3]};
}

std::tuple<at::Tensor&, at::Tensor&, at::Tensor&, at::Tensor&> linalg_slogdet_out(
    const at::Tensor& A, at::Tensor& sign, at::Tensor& logabsdet, at::Tensor& LU,
    at::Tensor& pivots) {
  Out<m::structured__linalg_slogdet> meta(sign, logabsdet, LU, pivots);
  meta.meta(A);
  slogdet_into(A, sign, logabsdet, LU, pivots);
  return {sign, logabsdet, LU, pivots};
}

void solve_into(const at::Tensor& A, const at::Tensor& B, bool left, bool check_errors,
                const at::Tensor& result, const at::Tensor& LU, const at::Tensor& pivots,
                const at::Tensor& info) {
  // A's own factors (torch 2.13's CPU no longer factors A^T here: the
  // backward reads LU as A's).
  at::linalg_lu_factor_ex_out(const_cast<at::Tensor&>(LU), const_cast<at::Tensor&>(pivots),
                              const_cast<at::Tensor&>(info), A);
  if (check_errors) at::_linalg_check_errors(info, "torch.linalg.solve_ex", A.dim() == 2);
  bool vector_case = at::native::linalg_solve_is_vector_rhs(LU, B);
  at::Tensor result_ = vector_case ? result.unsqueeze(-1) : result;
  at::Tensor B_ = vector_case ? B.unsqueeze(-1) : B;
  at::linalg_lu_solve_out(result_, LU, pivots, B_, left, /*adjoint=*/false);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor> linalg_solve_ex(const at::Tensor& A,
                                                                           const at::Tensor& B,
                                                                           bool left,
                                                                           bool check_errors) {
  Functional<m::structured__linalg_solve_ex> meta;
  meta.meta(A, B, left, check_errors);
  solve_into(A, B, left, check_errors, meta.outputs_[0], meta.outputs_[1], meta.outputs_[2],
             meta.outputs_[3]);
  return {meta.outputs_[0], meta.outputs_[1], meta.outputs_[2], meta.outputs_[3]};
}

std::tuple<at::Tensor&, at::Tensor&, at::Tensor&, at::Tensor&> linalg_solve_ex_out(
    const at::Tensor& A, const at::Tensor& B, bool left, bool check_errors, at::Tensor& result,
    at::Tensor& LU, at::Tensor& pivots, at::Tensor& info) {
  Out<m::structured__linalg_solve_ex> meta(result, LU, pivots, info);
  meta.meta(A, B, left, check_errors);
  solve_into(A, B, left, check_errors, result, LU, pivots, info);
  return {result, LU, pivots, info};
}

void inv_into(const at::Tensor& A, bool check_errors, const at::Tensor& result,
              const at::Tensor& info) {
  const_cast<at::Tensor&>(result).zero_();
  result.diagonal(0, -2, -1).fill_(1.);
  at::linalg_solve_ex_out(const_cast<at::Tensor&>(result), const_cast<at::Tensor&>(info), A,
                          result);
  if (check_errors) at::_linalg_check_errors(info, "linalg.inv_ex", A.dim() == 2);
}

std::tuple<at::Tensor, at::Tensor> linalg_inv_ex(const at::Tensor& A, bool check_errors) {
  Functional<m::structured_linalg_inv_ex> meta;
  meta.meta(A, check_errors);
  inv_into(A, check_errors, meta.outputs_[0], meta.outputs_[1]);
  return {meta.outputs_[0], meta.outputs_[1]};
}

std::tuple<at::Tensor&, at::Tensor&> linalg_inv_ex_out(const at::Tensor& A, bool check_errors,
                                                       at::Tensor& inverse, at::Tensor& info) {
  Out<m::structured_linalg_inv_ex> meta(inverse, info);
  meta.meta(A, check_errors);
  inv_into(A, check_errors, inverse, info);
  return {inverse, info};
}

// linalg_solve_triangular: X = T^-1 B (left) or B T^-1, T the upper or
// lower triangle of A (ones on its diagonal when unitriangular), batch dims
// broadcast; the right-hand form solves T^T X^T = B^T.
at::Tensor& solve_triangular_out(const at::Tensor& A, const at::Tensor& B, bool upper, bool left,
                                 bool unitriangular, at::Tensor& out) {
  at::native::checkInputsSolver(A, B, left, "linalg.solve_triangular");
  check_dtype(A, "linalg.solve_triangular");
  auto [B_, A_] = at::native::_linalg_broadcast_batch_dims(B, A, nullptr);
  at::native::resize_output(out, B_.sizes());
  if (out.numel() == 0) return out;
  at::Tensor x = left ? out : out.mT();
  if (!x.is_same(B_)) x.copy_(left ? B_ : B_.mT());
  solve_in_place("triangular", A_, {}, x, /*transposed=*/!left, /*lower=*/left != upper,
                 unitriangular);
  return out;
}

at::Tensor solve_triangular(const at::Tensor& A, const at::Tensor& B, bool upper, bool left,
                            bool unitriangular) {
  at::Tensor out = at::empty({0}, A.options());
  return solve_triangular_out(A, B, upper, left, unitriangular, out);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("linalg_solve_triangular", solve_triangular);
  m.impl("linalg_solve_triangular.out", solve_triangular_out);
  m.impl("linalg_lu_factor_ex", linalg_lu_factor_ex);
  m.impl("linalg_lu_factor_ex.out", linalg_lu_factor_ex_out);
  m.impl("linalg_lu_solve", linalg_lu_solve);
  m.impl("linalg_lu_solve.out", linalg_lu_solve_out);
  m.impl("_linalg_det", linalg_det);
  m.impl("_linalg_det.result", linalg_det_out);
  m.impl("_linalg_slogdet", linalg_slogdet);
  m.impl("_linalg_slogdet.sign", linalg_slogdet_out);
  m.impl("_linalg_solve_ex", linalg_solve_ex);
  m.impl("_linalg_solve_ex.result", linalg_solve_ex_out);
  m.impl("linalg_inv_ex", linalg_inv_ex);
  m.impl("linalg_inv_ex.inverse", linalg_inv_ex_out);
}

}  // namespace torchvulkan
