// Small linear-algebra ops as native views, products and sums:
//   trace(A)           = sum of A's diagonal
//   linalg_cross(a, b) = a[1] b[2] - a[2] b[1], a[2] b[0] - a[0] b[2], a[0] b[1] - a[1] b[0]
//                        along `dim` (size 3), broadcast
#include <ATen/TensorOperators.h>
#include <ATen/ops/linalg_cross_meta.h>
#include <ATen/ops/roll.h>
#include <torch/library.h>

#include "aten/structured.h"

namespace torchvulkan {
namespace {

at::Tensor trace(const at::Tensor& self) {
  TORCH_CHECK(self.dim() == 2, "trace: expected a matrix, but got tensor with dim ", self.dim());
  return self.diagonal().sum();
}

// b rolled by one and two places along dim gives the cross product's
// cyclic terms.
void cross_into(const at::Tensor& a, const at::Tensor& b, int64_t dim, const at::Tensor& out) {
  int64_t d = c10::maybe_wrap_dim(dim, out.dim());
  at::Tensor result =
      at::roll(a, -1, d) * at::roll(b, -2, d) - at::roll(a, -2, d) * at::roll(b, -1, d);
  const_cast<at::Tensor&>(out).copy_(result);
}

at::Tensor linalg_cross(const at::Tensor& self, const at::Tensor& other, int64_t dim) {
  Functional<at::meta::structured_linalg_cross> meta;
  meta.meta(self, other, dim);
  cross_into(self, other, dim, meta.outputs_[0]);
  return meta.outputs_[0];
}

at::Tensor& linalg_cross_out(const at::Tensor& self, const at::Tensor& other, int64_t dim,
                             at::Tensor& out) {
  Out<at::meta::structured_linalg_cross> meta(out);
  meta.meta(self, other, dim);
  cross_into(self, other, dim, out);
  return out;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("trace", trace);
  m.impl("linalg_cross", linalg_cross);
  m.impl("linalg_cross.out", linalg_cross_out);
}

}  // namespace torchvulkan
