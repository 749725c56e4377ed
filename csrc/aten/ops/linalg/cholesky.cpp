// linalg_cholesky_ex: A = L L^T (or U^T U, upper), one workgroup per matrix
// (shaders/linalg/cholesky.comp, LAPACK's potf2), reading only the triangle
// it returns: the upper one through the transposed view. A matrix that is
// not positive definite gives info = the order of the first leading minor
// that is not, as LAPACK's. ATen's meta checks the arguments and makes the
// outputs; float32 and float64, as the CPU. torch.cholesky (deprecated) is
// the same with the CPU's error check.
#include <ATen/ops/_linalg_check_errors.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/linalg_cholesky_ex_meta.h>
#include <torch/library.h>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/ops/linalg/matrices.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

struct Args {
  uint64_t l, info, batches;
  int64_t n, batch_stride, row_stride, col_stride;
};

void cholesky_into(const at::Tensor& A, bool upper, bool check_errors, const at::Tensor& L,
                   const at::Tensor& info) {
  linalg::check_dtype(A, "linalg.cholesky");
  if (L.numel() == 0) {
    info.zero_();
    return;
  }
  if (!L.is_same(A)) L.copy_(A);
  bool copied, copied_info;
  at::Tensor lower = linalg::flat_batches(upper ? L.mT() : L, copied);
  at::Tensor flat_info = linalg::contiguous_flat(info, {-1}, copied_info);
  Args args{address_of(lower), address_of(flat_info), uint64_t(lower.size(0)), lower.size(1),
            lower.stride(0),   lower.stride(1),       lower.stride(2)};
  std::vector<rt::Access> accesses = {span_of(lower, true), span_of(flat_info, true)};
  linalg::launch_groups("cholesky.lower", lower, args, args.batches, accesses);
  if (copied) (upper ? L.mT() : L).copy_(lower.view(L.sizes()));
  if (copied_info) info.copy_(flat_info.view(info.sizes()));
  if (check_errors) at::_linalg_check_errors(info, "linalg.cholesky_ex", A.dim() == 2);
}

std::tuple<at::Tensor, at::Tensor> linalg_cholesky_ex(const at::Tensor& A, bool upper,
                                                      bool check_errors) {
  Functional<at::meta::structured_linalg_cholesky_ex> meta;
  meta.meta(A, upper, check_errors);
  cholesky_into(A, upper, check_errors, meta.outputs_[0], meta.outputs_[1]);
  return {meta.outputs_[0], meta.outputs_[1]};
}

std::tuple<at::Tensor&, at::Tensor&> linalg_cholesky_ex_out(const at::Tensor& A, bool upper,
                                                            bool check_errors, at::Tensor& L,
                                                            at::Tensor& info) {
  Out<at::meta::structured_linalg_cholesky_ex> meta(L, info);
  meta.meta(A, upper, check_errors);
  cholesky_into(A, upper, check_errors, L, info);
  return {L, info};
}

// torch.cholesky, the deprecated form: the factor, or the CPU's error.
at::Tensor& cholesky_out(const at::Tensor& self, bool upper, at::Tensor& out) {
  TORCH_WARN_ONCE(
      "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
      "future PyTorch release.");
  at::Tensor info = at::empty({0}, self.options().dtype(at::kInt));
  linalg_cholesky_ex_out(self, upper, false, out, info);
  at::_linalg_check_errors(info, "cholesky", self.dim() == 2);
  return out;
}

at::Tensor cholesky(const at::Tensor& self, bool upper) {
  at::Tensor out = at::empty({0}, self.options());
  return cholesky_out(self, upper, out);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("linalg_cholesky_ex", linalg_cholesky_ex);
  m.impl("linalg_cholesky_ex.L", linalg_cholesky_ex_out);
  m.impl("cholesky", cholesky);
  m.impl("cholesky.out", cholesky_out);
}

}  // namespace torchvulkan
