// The LDL^T factorization of symmetric matrices and its solve, as LAPACK's
// sytrf / sytrs (lower) compute them for the CPU: linalg_ldl_factor_ex
// (shaders/linalg/ldl_factor.comp, Bunch-Kaufman pivoting, one workgroup a
// matrix) and linalg_ldl_solve (ldl_solve.comp, one invocation a right-hand
// column). ATen's meta functions check the arguments and make the outputs;
// as ATen's own kernels, the factorization starts from A's lower triangle.
// float32 and float64 (so `hermitian` changes nothing).
#include <ATen/ops/_linalg_check_errors.h>
#include <ATen/ops/linalg_ldl_factor_ex_meta.h>
#include <ATen/ops/linalg_ldl_solve_meta.h>
#include <ATen/ops/tril.h>
#include <torch/library.h>

#include <string>
#include <vector>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/ops/linalg/matrices.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;
using linalg::check_dtype;
using linalg::contiguous_flat;
using linalg::flat_batches;

struct FactorArgs {
  uint64_t ld, pivots, info, batches;
  int64_t n, batch_stride, row_stride, col_stride, pivots_stride;
};

void factor_into(const at::Tensor& A, bool check_errors, const at::Tensor& LD,
                 const at::Tensor& pivots, const at::Tensor& info) {
  check_dtype(A, "linalg.ldl_factor");
  if (A.numel() == 0) {
    info.zero_();
    return;
  }
  at::tril_out(const_cast<at::Tensor&>(LD), A);
  bool copied_ld, copied_piv, copied_info;
  at::Tensor ld = flat_batches(LD, copied_ld);
  at::Tensor piv = contiguous_flat(pivots, {-1, pivots.size(-1)}, copied_piv);
  at::Tensor inf = contiguous_flat(info, {-1}, copied_info);
  FactorArgs args{address_of(ld),       address_of(piv), address_of(inf),
                  uint64_t(ld.size(0)), ld.size(1),      ld.stride(0),
                  ld.stride(1),         ld.stride(2),    piv.stride(0)};
  linalg::launch_groups("ldl_factor.ldl", ld, args, args.batches,
                        {span_of(ld, true), span_of(piv, true), span_of(inf, true)});
  if (copied_ld) LD.copy_(ld.view(LD.sizes()));
  if (copied_piv) pivots.copy_(piv.view(pivots.sizes()));
  if (copied_info) info.copy_(inf.view(info.sizes()));
  if (check_errors) at::_linalg_check_errors(info, "torch.linalg.ldl_factor_ex", A.dim() == 2);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> linalg_ldl_factor_ex(const at::Tensor& A,
                                                                    bool hermitian,
                                                                    bool check_errors) {
  Functional<m::structured_linalg_ldl_factor_ex> meta;
  meta.meta(A, hermitian, check_errors);
  factor_into(A, check_errors, meta.outputs_[0], meta.outputs_[1], meta.outputs_[2]);
  return {meta.outputs_[0], meta.outputs_[1], meta.outputs_[2]};
}

std::tuple<at::Tensor&, at::Tensor&, at::Tensor&> linalg_ldl_factor_ex_out(
    const at::Tensor& A, bool hermitian, bool check_errors, at::Tensor& LD, at::Tensor& pivots,
    at::Tensor& info) {
  Out<m::structured_linalg_ldl_factor_ex> meta(LD, pivots, info);
  meta.meta(A, hermitian, check_errors);
  factor_into(A, check_errors, LD, pivots, info);
  return {LD, pivots, info};
}

// result := B (broadcast), then solved in place, LD's and the pivots' batch
// dims broadcast to result's.
void solve_into(const at::Tensor& LD, const at::Tensor& pivots, const at::Tensor& B,
                const at::Tensor& result) {
  check_dtype(LD, "linalg.ldl_solve");
  if (LD.numel() == 0 || pivots.numel() == 0 || result.numel() == 0) return;
  result.copy_(B);
  at::IntArrayRef batch = result.sizes().slice(0, result.dim() - 2);
  at::Tensor ld = linalg::batched(LD, batch), piv = linalg::batched_pivots(pivots, batch);
  bool copied_x;
  at::Tensor x = flat_batches(result, copied_x);
  std::vector<int64_t> words = {int64_t(address_of(ld)),
                                int64_t(address_of(piv)),
                                int64_t(address_of(x)),
                                x.size(0),
                                x.size(1),
                                x.size(2),
                                ld.stride(0),
                                ld.stride(1),
                                ld.stride(2),
                                x.stride(0),
                                x.stride(1),
                                x.stride(2)};
  launch_with_params(device_for(x), std::string("ldl_solve.ldl.") + dtype_name(x.scalar_type()),
                     words, static_cast<uint64_t>(x.size(0) * x.size(2)),
                     {span_of(ld, false), span_of(piv, false), span_of(x, true)});
  if (copied_x) result.copy_(x.view(result.sizes()));
}

at::Tensor linalg_ldl_solve(const at::Tensor& LD, const at::Tensor& pivots, const at::Tensor& B,
                            bool hermitian) {
  Functional<m::structured_linalg_ldl_solve> meta;
  meta.meta(LD, pivots, B, hermitian);
  solve_into(LD, pivots, B, meta.outputs_[0]);
  return meta.outputs_[0];
}

at::Tensor& linalg_ldl_solve_out(const at::Tensor& LD, const at::Tensor& pivots,
                                 const at::Tensor& B, bool hermitian, at::Tensor& result) {
  Out<m::structured_linalg_ldl_solve> meta(result);
  meta.meta(LD, pivots, B, hermitian);
  solve_into(LD, pivots, B, result);
  return result;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("linalg_ldl_factor_ex", linalg_ldl_factor_ex);
  m.impl("linalg_ldl_factor_ex.out", linalg_ldl_factor_ex_out);
  m.impl("linalg_ldl_solve", linalg_ldl_solve);
  m.impl("linalg_ldl_solve.out", linalg_ldl_solve_out);
}

}  // namespace torchvulkan
