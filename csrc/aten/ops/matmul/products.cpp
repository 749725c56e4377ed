// mm, addmm, bmm, baddbmm and _addmm_activation: ATen's meta functions check
// and shape; gemm() computes. linear and matmul stay PyTorch's composites and
// land here.
#include <ATen/core/ATen_fwd.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/_addmm_activation_meta.h>
#include <ATen/ops/addmm.h>
#include <ATen/ops/addmm_meta.h>
#include <ATen/ops/addmv_meta.h>
#include <ATen/ops/baddbmm_meta.h>
#include <ATen/ops/bmm_meta.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/logical_and.h>
#include <ATen/ops/logical_or.h>
#include <ATen/ops/mm_meta.h>
#include <ATen/ops/zeros_like.h>
#include <torch/library.h>

#include <string_view>

#include "aten/ops/matmul/gemm.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;
using Scalar = c10::Scalar;

at::Tensor mm(const at::Tensor& a, const at::Tensor& b) {
  Functional<m::structured_mm> meta;
  meta.meta(a, b);
  gemm(a, b, meta.outputs_[0], {}, 1, 0);
  return meta.outputs_[0];
}
at::Tensor& mm_out(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
  Out<m::structured_mm> meta(out);
  meta.meta(a, b);
  gemm(a, b, out, {}, 1, 0);
  return out;
}

at::Tensor bmm(const at::Tensor& a, const at::Tensor& b) {
  Functional<m::structured_bmm> meta;
  meta.meta(a, b);
  gemm(a, b, meta.outputs_[0], {}, 1, 0);
  return meta.outputs_[0];
}
at::Tensor& bmm_out(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
  Out<m::structured_bmm> meta(out);
  meta.meta(a, b);
  gemm(a, b, out, {}, 1, 0);
  return out;
}

// addmm / baddbmm: out = beta * self + alpha * (a @ b).
template <class Meta>
at::Tensor addmm_like(const at::Tensor& self, const at::Tensor& a, const at::Tensor& b,
                      const Scalar& beta, const Scalar& alpha) {
  Functional<Meta> meta;
  meta.meta(self, a, b, beta, alpha);
  gemm(a, b, meta.outputs_[0], self, alpha, beta);
  return meta.outputs_[0];
}
template <class Meta>
at::Tensor& addmm_like_out(const at::Tensor& self, const at::Tensor& a, const at::Tensor& b,
                           const Scalar& beta, const Scalar& alpha, at::Tensor& out) {
  Out<Meta> meta(out);
  meta.meta(self, a, b, beta, alpha);
  gemm(a, b, out, self, alpha, beta);
  return out;
}
template <class Meta>
at::Tensor& addmm_like_(at::Tensor& self, const at::Tensor& a, const at::Tensor& b,
                        const Scalar& beta, const Scalar& alpha) {
  InPlace<Meta> meta(self);
  meta.meta(self, a, b, beta, alpha);
  gemm(a, b, self, self, alpha, beta);  // each output element reads only its own bias element
  return self;
}

at::Tensor addmm_activation(const at::Tensor& self, const at::Tensor& a, const at::Tensor& b,
                            const Scalar& beta, const Scalar& alpha, bool use_gelu) {
  Functional<m::structured__addmm_activation> meta;
  meta.meta(self, a, b, beta, alpha, use_gelu);
  gemm(a, b, meta.outputs_[0], self, alpha, beta, use_gelu ? Epilogue::gelu : Epilogue::relu);
  return meta.outputs_[0];
}
at::Tensor& addmm_activation_out(const at::Tensor& self, const at::Tensor& a, const at::Tensor& b,
                                 const Scalar& beta, const Scalar& alpha, bool use_gelu,
                                 at::Tensor& out) {
  Out<m::structured__addmm_activation> meta(out);
  meta.meta(self, a, b, beta, alpha, use_gelu);
  gemm(a, b, out, self, alpha, beta, use_gelu ? Epilogue::gelu : Epilogue::relu);
  return out;
}

// Vector products as [M, K] x [K, 1] products.
at::Tensor& addmv_out(const at::Tensor& self, const at::Tensor& mat, const at::Tensor& vec,
                      const Scalar& beta, const Scalar& alpha, at::Tensor& out) {
  Out<m::structured_addmv> meta(out);
  meta.meta(self, mat, vec, beta, alpha);
  gemm(mat, vec.unsqueeze(1), out.unsqueeze(1), self.expand({mat.size(0)}).unsqueeze(1), alpha,
       beta);
  return out;
}
at::Tensor addmv(const at::Tensor& self, const at::Tensor& mat, const at::Tensor& vec,
                 const Scalar& beta, const Scalar& alpha) {
  Functional<m::structured_addmv> meta;
  meta.meta(self, mat, vec, beta, alpha);
  at::Tensor& out = meta.outputs_[0];
  gemm(mat, vec.unsqueeze(1), out.unsqueeze(1), self.expand({mat.size(0)}).unsqueeze(1), alpha,
       beta);
  return out;
}
at::Tensor& addmv_(at::Tensor& self, const at::Tensor& mat, const at::Tensor& vec,
                   const Scalar& beta, const Scalar& alpha) {
  InPlace<m::structured_addmv> meta(self);
  meta.meta(self, mat, vec, beta, alpha);
  gemm(mat, vec.unsqueeze(1), self.unsqueeze(1), self.unsqueeze(1), alpha, beta);
  return self;
}

// addbmm: beta self + alpha sum_b batch1[b] @ batch2[b], as one product whose
// K runs over the batches and the inner dim: [n, B k] @ [B k, p] (batch1's
// rows gathered once; batch2 is usually a view).
std::pair<at::Tensor, at::Tensor> addbmm_operands(const at::Tensor& batch1,
                                                  const at::Tensor& batch2) {
  TORCH_CHECK(batch1.dim() == 3, "batch1 must be a 3D tensor");
  TORCH_CHECK(batch2.dim() == 3, "batch2 must be a 3D tensor");
  TORCH_CHECK(batch1.size(0) == batch2.size(0),
              "batch1 and batch2 must have same number of batches, got ", batch1.size(0), " and ",
              batch2.size(0));
  TORCH_CHECK(batch1.size(2) == batch2.size(1), "Incompatible matrix sizes for bmm (",
              batch1.size(1), "x", batch1.size(2), " and ", batch2.size(1), "x", batch2.size(2),
              ")");
  int64_t b = batch1.size(0), n = batch1.size(1), k = batch1.size(2), p = batch2.size(2);
  return {batch1.transpose(0, 1).reshape({n, b * k}), batch2.reshape({b * k, p})};
}
at::Tensor addbmm(const at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2,
                  const Scalar& beta, const Scalar& alpha) {
  auto [a, b] = addbmm_operands(batch1, batch2);
  return at::addmm(self, a, b, beta, alpha);
}
at::Tensor& addbmm_out(const at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2,
                       const Scalar& beta, const Scalar& alpha, at::Tensor& out) {
  auto [a, b] = addbmm_operands(batch1, batch2);
  return at::addmm_out(out, self, a, b, beta, alpha);
}
// In place, a self that only broadcasts to the result is resized to it (with
// ATen's warning), as the CPU and CUDA kernels do.
at::Tensor& addbmm_(at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2,
                    const Scalar& beta, const Scalar& alpha) {
  auto [a, b] = addbmm_operands(batch1, batch2);
  if (self.dim() == 2 && self.size(0) == a.size(0) && self.size(1) == b.size(1))
    return self.addmm_(a, b, beta, alpha);
  at::Tensor result = at::addmm(self, a, b, beta, alpha);
  at::native::resize_output(self, result.sizes());
  return self.copy_(result);
}

// addr: beta self + alpha vec1 vec2^T, a product with K = 1; for bool,
// ATen's logical form (beta and self) or (alpha and vec1 and vec2). The
// checks and messages are the CPU kernel's.
void addr_checks(const at::Tensor& self, const at::Tensor& vec1, const at::Tensor& vec2,
                 const Scalar& beta, const Scalar& alpha) {
  TORCH_CHECK(vec1.dim() == 1, "addr: Expected 1-D argument vec1, but got ", vec1.dim(), "-D");
  TORCH_CHECK(vec2.dim() == 1, "addr: Expected 1-D argument vec2, but got ", vec2.dim(), "-D");
  TORCH_CHECK(self.scalar_type() == vec1.scalar_type() && self.scalar_type() == vec2.scalar_type(),
              "expected scalar type ", self.scalar_type(), " but found ",
              vec1.scalar_type() != self.scalar_type() ? vec1.scalar_type() : vec2.scalar_type());
  if (self.scalar_type() == at::kBool) {
    TORCH_CHECK(beta.isBoolean() || !beta.isFloatingPoint(),
                "Boolean beta only supported for Boolean results.");
    TORCH_CHECK(alpha.isBoolean() || !alpha.isFloatingPoint(),
                "Boolean alpha only supported for Boolean results.");
  } else if (at::isIntegralType(self.scalar_type(), /*includeBool=*/false)) {
    TORCH_CHECK(!beta.isFloatingPoint(),
                "For integral input tensors, argument beta must not be a floating point number.");
    TORCH_CHECK(!alpha.isFloatingPoint(),
                "For integral input tensors, argument alpha must not be a floating point number.");
  }
}
void addr_into(const at::Tensor& self, const at::Tensor& vec1, const at::Tensor& vec2,
               const Scalar& beta, const Scalar& alpha, const at::Tensor& out) {
  at::Tensor bias = self.expand({vec1.size(0), vec2.size(0)});
  if (out.scalar_type() != at::kBool) {
    gemm(vec1.unsqueeze(1), vec2.unsqueeze(0), out, bias, alpha, beta);
    return;
  }
  at::Tensor product = at::logical_and(vec1.unsqueeze(1), vec2.unsqueeze(0));
  at::Tensor result = alpha.toBool() ? product : at::zeros_like(product);
  if (beta.toBool()) result = at::logical_or(result, bias);
  out.copy_(result);
}
at::Tensor addr(const at::Tensor& self, const at::Tensor& vec1, const at::Tensor& vec2,
                const Scalar& beta, const Scalar& alpha) {
  addr_checks(self, vec1, vec2, beta, alpha);
  at::Tensor out = at::empty({vec1.size(0), vec2.size(0)}, self.options());
  addr_into(self, vec1, vec2, beta, alpha, out);
  return out;
}
at::Tensor& addr_out(const at::Tensor& self, const at::Tensor& vec1, const at::Tensor& vec2,
                     const Scalar& beta, const Scalar& alpha, at::Tensor& out) {
  addr_checks(self, vec1, vec2, beta, alpha);
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "expected scalar type ", self.scalar_type(),
              " but found ", out.scalar_type());
  at::native::resize_output(out, {vec1.size(0), vec2.size(0)});
  addr_into(self, vec1, vec2, beta, alpha, out);
  return out;
}
at::Tensor& addr_(at::Tensor& self, const at::Tensor& vec1, const at::Tensor& vec2,
                  const Scalar& beta, const Scalar& alpha) {
  TORCH_CHECK(self.dim() == 2, "2D tensor expected, got ", self.dim(), "D tensor for input");
  addr_checks(self, vec1, vec2, beta, alpha);
  TORCH_CHECK(self.size(0) == vec1.size(0) && self.size(1) == vec2.size(0),
              "size mismatch, input: ", self.sizes(), ", v1: ", vec1.sizes(),
              ", v2: ", vec2.sizes());
  addr_into(self, vec1, vec2, beta, alpha, self);
  return self;
}

at::Tensor dot(const at::Tensor& a, const at::Tensor& b) {
  TORCH_CHECK(a.dim() == 1 && b.dim() == 1, "1D tensors expected, but got ", a.dim(), "D and ",
              b.dim(), "D tensors");
  TORCH_CHECK(a.scalar_type() == b.scalar_type(),
              "dot : expected both vectors to have same dtype, but found ", a.scalar_type(),
              " and ", b.scalar_type());
  TORCH_CHECK(a.numel() == b.numel(), "inconsistent tensor size, expected tensor [", a.numel(),
              "] and src [", b.numel(), "] to have the same number of elements, but got ",
              a.numel(), " and ", b.numel(), " elements respectively");
  TORCH_CHECK(!a.is_complex(), "torchvulkan: complex dot products run through the CPU");
  at::Tensor out = at::empty({}, a.options());
  gemm(a.unsqueeze(0), b.unsqueeze(1), out.view({1, 1}), {}, 1, 0);
  return out;
}

// torch._int_mm: int8 or uint8 [m, k] @ int8 [k, n] as int32 sums, which
// wrap as the CPU's do. The checks, their order and their messages are the
// CPU kernel's, its name included: out is not resized but must have the
// result's size and be contiguous, and the functional form sizes its result
// before any check (so a 1-D mat2 raises IndexError there too).
at::Tensor& int_mm_out(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
  constexpr std::string_view name = "int_mm_out_cpu";
  TORCH_CHECK(a.dim() == 2, name, ": Expected self to be of dimension 2 but got ", a.dim());
  TORCH_CHECK(b.dim() == 2, name, ": Expected mat2 to be of dimension 2 but got ", b.dim());
  TORCH_CHECK(a.size(1) == b.size(0), name, ": self.size(1) needs to match mat2.size(0) but got ",
              a.size(1), " and ", b.size(0));
  TORCH_CHECK(a.dtype() == at::kChar || a.dtype() == at::kByte, name,
              ": Expected self dtype to be int8 or uint8 but got ", a.dtype());
  TORCH_CHECK(b.dtype() == at::kChar, name, ": Expected mat2 dtype to be of type int8 but got ",
              b.dtype());
  TORCH_CHECK(out.dtype() == at::kInt, name, ": Expected result dtype to be of type kInt but got ",
              out.dtype());
  TORCH_CHECK(out.size(0) == a.size(0), name, ": Expected result.size(0) to be ", a.size(0),
              " but got ", out.size(0));
  TORCH_CHECK(out.size(1) == b.size(1), name, ": Expected result.size(1) to be ", b.size(1),
              " but got ", out.size(1));
  TORCH_CHECK(out.dim() == 2, name, ": Expected result to be of dimension 2 but got ", out.dim());
  TORCH_CHECK(out.is_contiguous(), name, ": Expected result to be contiguous.");
  gemm(a, b, out, {}, 1, 0);
  return out;
}
at::Tensor int_mm(const at::Tensor& a, const at::Tensor& b) {
  at::Tensor out = at::empty({a.size(0), b.size(1)}, a.options().dtype(at::kInt));
  return int_mm_out(a, b, out);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("mm", mm);
  m.impl("mm.out", mm_out);
  m.impl("bmm", bmm);
  m.impl("bmm.out", bmm_out);
  m.impl("addmm", addmm_like<m::structured_addmm>);
  m.impl("addmm.out", addmm_like_out<m::structured_addmm>);
  m.impl("addmm_", addmm_like_<m::structured_addmm>);
  m.impl("baddbmm", addmm_like<m::structured_baddbmm>);
  m.impl("baddbmm.out", addmm_like_out<m::structured_baddbmm>);
  m.impl("baddbmm_", addmm_like_<m::structured_baddbmm>);
  m.impl("_addmm_activation", addmm_activation);
  m.impl("_addmm_activation.out", addmm_activation_out);
  m.impl("addmv", addmv);
  m.impl("addmv.out", addmv_out);
  m.impl("addmv_", addmv_);
  m.impl("addr", addr);
  m.impl("addr.out", addr_out);
  m.impl("addr_", addr_);
  m.impl("addbmm", addbmm);
  m.impl("addbmm.out", addbmm_out);
  m.impl("addbmm_", addbmm_);
  m.impl("dot", dot);
  m.impl("vdot", dot);
  m.impl("_int_mm", int_mm);
  m.impl("_int_mm.out", int_mm_out);
}

}  // namespace torchvulkan
