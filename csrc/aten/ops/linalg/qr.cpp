// QR on the device. ATen's own geqrf, linalg_householder_product (orgqr) and
// linalg_qr (its structured kernel: the modes, the shapes, which output holds
// the reflectors) run here as they do on the CPU, through the DispatchStubs
// these kernels fill: shaders/linalg/householder.comp's geqrf (geqr2's
// reflectors, LAPACK's signs, so Q and R match the CPU's) and orgqr (org2r).
// ormqr (Q times a matrix) forms the whole Q by orgqr and multiplies by it:
// O(m^3) where LAPACK's ormqr applies the reflectors one by one, which suits
// the small matrices these kernels are for. float32 and float64, one
// workgroup per matrix.
#include <ATen/native/BatchLinearAlgebra.h>
#include <ATen/ops/geqrf_native.h>
#include <ATen/ops/linalg_householder_product_native.h>
#include <ATen/ops/linalg_qr_native.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/ormqr_native.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

#include <string>
#include <tuple>
#include <vector>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/ops/linalg/matrices.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

using linalg::check_dtype;
using linalg::flat_batches;

struct HouseholderArgs {
  uint64_t a, tau, batches;
  int64_t m, n, k, batch_stride, row_stride, col_stride, tau_batch_stride, tau_stride;
};

// householder.<op> on A ([..., m, n]) with the reflectors' tau ([..., k]):
// geqrf writes both, orgqr turns A's reflectors into Q's first n columns.
void householder(const char* op, const at::Tensor& A, const at::Tensor& tau) {
  check_dtype(A, op);
  if (A.numel() == 0) return;
  bool copied_a, copied_tau;
  at::Tensor a = flat_batches(A, copied_a);
  at::Tensor t = flat_batches(tau.unsqueeze(-1), copied_tau).squeeze(-1);
  HouseholderArgs args{address_of(a), address_of(t), uint64_t(a.size(0)), a.size(1),
                       a.size(2),     t.size(1),     a.stride(0),         a.stride(1),
                       a.stride(2),   t.stride(0),   t.stride(1)};
  bool geqrf = std::string(op) == "geqrf";
  std::vector<rt::Access> accesses = {span_of(a, true), span_of(t, geqrf)};
  linalg::launch_groups(std::string("householder.") + op, a, args, args.batches, accesses);
  if (copied_a) A.copy_(a.view(A.sizes()));
  if (copied_tau && geqrf) tau.copy_(t.view(tau.sizes()));
}

void geqrf_kernel(const at::Tensor& input, const at::Tensor& tau) {
  householder("geqrf", input, tau);
}

at::Tensor& orgqr_kernel(at::Tensor& result, const at::Tensor& tau) {
  householder("orgqr", result, tau);
  return result;
}

// other := op(Q) other (left) or other op(Q), op transposing or not, with Q
// ([..., m, m]) from the reflectors in input's first tau.size(-1) columns.
void ormqr_kernel(const at::Tensor& input, const at::Tensor& tau, const at::Tensor& other,
                  bool left, bool transpose) {
  int64_t m = left ? other.size(-2) : other.size(-1), k = tau.size(-1);
  std::vector<int64_t> sizes(input.sizes().begin(), input.sizes().end() - 2);
  sizes.insert(sizes.end(), {m, m});
  at::Tensor q = at::zeros(sizes, input.options());
  q.narrow(-1, 0, k).copy_(input.narrow(-2, 0, m).narrow(-1, 0, k));
  orgqr_kernel(q, tau);
  at::Tensor op = transpose ? q.mT() : q;
  other.copy_(left ? at::matmul(op, other) : at::matmul(other, op));
}

std::tuple<at::Tensor, at::Tensor> linalg_qr(const at::Tensor& A, c10::string_view mode) {
  Functional<at::native::structured_linalg_qr_out> op;
  op.meta(A, mode);
  op.impl(A, mode, op.outputs_[0], op.outputs_[1]);
  return {op.outputs_[0], op.outputs_[1]};
}

std::tuple<at::Tensor&, at::Tensor&> linalg_qr_out(const at::Tensor& A, c10::string_view mode,
                                                   at::Tensor& Q, at::Tensor& R) {
  Out<at::native::structured_linalg_qr_out> op(Q, R);
  op.meta(A, mode);
  op.impl(A, mode, Q, R);
  return {Q, R};
}

}  // namespace
}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(geqrf_stub, &torchvulkan::geqrf_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(orgqr_stub, &torchvulkan::orgqr_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(ormqr_stub, &torchvulkan::ormqr_kernel)
}  // namespace at::native

namespace torchvulkan {

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("geqrf", at::native::geqrf);
  m.impl("geqrf.a", at::native::geqrf_out);
  m.impl("linalg_householder_product", at::native::linalg_householder_product);
  m.impl("linalg_householder_product.out", at::native::linalg_householder_product_out);
  m.impl("ormqr", at::native::ormqr);
  m.impl("ormqr.out", at::native::ormqr_out);
  m.impl("linalg_qr", linalg_qr);
  m.impl("linalg_qr.out", linalg_qr_out);
}

}  // namespace torchvulkan
