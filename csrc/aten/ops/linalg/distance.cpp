// _cdist_forward, _pdist_forward and their backwards: p-norm distances
// between rows (shaders/linalg/distance.comp), with the CPU's checks and
// special cases. cdist with p = 2 takes the matrix-product form
// (_euclidean_dist: |u|^2 + |v|^2 - 2 u.v, on the native products) where
// the CPU does: compute_mode 1, or 0 with more than 25 rows.
#include <ATen/ExpandUtils.h>
#include <ATen/ops/_euclidean_dist.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>
#include <ATen/ops/zeros_like.h>
#include <c10/util/irange.h>
#include <torch/library.h>

#include <bit>
#include <cmath>
#include <vector>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/ops/linalg/matrices.h"

namespace torchvulkan {
namespace {

// Runs distance.<op>. x1, x2, out ([batches, rows, columns] views; pdist's
// vectors as [1, 1, n]), and backward grad and dist.
void launch(const char* op, bool pdist, double p, const at::Tensor& x1, const at::Tensor& x2,
            const at::Tensor& out, const at::Tensor& grad, const at::Tensor& dist) {
  bool forward = !grad.defined();
  std::vector<int64_t> words;
  for (const at::Tensor* t : {&x1, &x2, &out, &grad, &dist})
    words.push_back(int64_t(address_of(*t)));
  words.insert(words.end(), {x1.size(0), x1.size(1), x2.size(1), x1.size(2)});
  for (const at::Tensor* t : {&x1, &x2, &out, &grad, &dist}) {
    if (t->defined())
      words.insert(words.end(), {t->stride(0), t->stride(1), t->stride(2)});
    else
      words.insert(words.end(), 3, 0);
  }
  float p32 = static_cast<float>(p);
  words.insert(words.end(),
               {int64_t(std::bit_cast<uint32_t>(p32)), int64_t(pdist), std::bit_cast<int64_t>(p)});
  std::vector<rt::Access> accesses = {span_of(x1, false), span_of(x2, false), span_of(out, true)};
  if (!forward) accesses.insert(accesses.end(), {span_of(grad, false), span_of(dist, false)});
  launch_with_params(device_for(x1),
                     std::string("distance.") + op + "." + dtype_name(x1.scalar_type()), words,
                     static_cast<uint64_t>(out.numel()), accesses);
}

// x1's and x2's batch dimensions broadcast to one (linalg::batched gives the
// [batches, rows, columns] views of both).
std::vector<int64_t> batch_shape(const at::Tensor& x1, const at::Tensor& x2) {
  return at::infer_size(x1.sizes().slice(0, x1.dim() - 2), x2.sizes().slice(0, x2.dim() - 2));
}

at::Tensor cdist_forward(const at::Tensor& x1, const at::Tensor& x2, double p,
                         std::optional<int64_t> compute_mode) {
  TORCH_CHECK(x1.dim() >= 2, "cdist only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  TORCH_CHECK(x2.dim() >= 2, "cdist only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  TORCH_CHECK(x1.size(-1) == x2.size(-1),
              "X1 and X2 must have the same number of columns. X1: ", x1.size(-1),
              " X2: ", x2.size(-1));
  TORCH_CHECK(at::isFloatingType(x1.scalar_type()),
              "cdist only supports floating-point dtypes, X1 got: ", x1.scalar_type());
  TORCH_CHECK(at::isFloatingType(x2.scalar_type()),
              "cdist only supports floating-point dtypes, X2 got: ", x2.scalar_type());
  TORCH_CHECK(x1.scalar_type() == x2.scalar_type(),
              "cdist: X1 and X2 must have the same dtype, got ", x1.scalar_type(), " and ",
              x2.scalar_type());
  TORCH_CHECK(p >= 0, "cdist only supports non-negative p values");
  int64_t mode = compute_mode.value_or(0);
  TORCH_CHECK(mode >= 0 && mode <= 2, "possible modes: 0, 1, 2, but was: ", mode);
  int64_t r1 = x1.size(-2), r2 = x2.size(-2);
  std::vector<int64_t> batch = batch_shape(x1, x2), shape = batch;
  shape.insert(shape.end(), {r1, r2});
  if (r1 == 0 || r2 == 0 || c10::multiply_integers(batch) == 0)
    return at::empty(shape, x1.options());
  if (x1.size(-1) == 0) return at::zeros(shape, x1.options());
  at::Tensor a = linalg::batched(x1, batch), b = linalg::batched(x2, batch);
  if (p == 2 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25))))
    return at::_euclidean_dist(a, b).view(shape);
  at::Tensor out = at::empty({a.size(0), r1, r2}, x1.options());
  launch("forward", false, p, a, b, out, {}, {});
  return out.view(shape);
}

at::Tensor cdist_backward(const at::Tensor& grad, const at::Tensor& x1, const at::Tensor& x2,
                          double p, const at::Tensor& cdist) {
  std::vector<int64_t> batch = batch_shape(x1, x2), sizes = batch;
  sizes.insert(sizes.end(), {x1.size(-2), x1.size(-1)});
  if (p == 0 || x1.size(-2) == 0 || x2.size(-2) == 0 || x1.size(-1) == 0 ||
      c10::multiply_integers(batch) == 0)
    return at::zeros_like(x1);
  at::Tensor a = linalg::batched(x1, batch), b = linalg::batched(x2, batch);
  at::Tensor g = grad.reshape({-1, x1.size(-2), x2.size(-2)}),
             d = cdist.reshape({-1, x1.size(-2), x2.size(-2)});
  at::Tensor grad_x1 = at::empty({a.size(0), a.size(1), a.size(2)}, x1.options());
  launch("backward", false, p, a, b, grad_x1, g, d);
  return grad_x1.view(sizes);
}

// A vector as pdist's [1, 1, n] view.
at::Tensor as_row(const at::Tensor& t) {
  return t.view({1, 1, -1});
}

at::Tensor pdist_forward(const at::Tensor& self, double p) {
  TORCH_CHECK(self.is_contiguous(), "_pdist_forward requires contiguous input");
  TORCH_CHECK(self.dim() == 2, "pdist only supports 2D tensors, got: ", self.dim(), "D");
  TORCH_CHECK(at::isFloatingType(self.scalar_type()), "pdist only supports floating-point dtypes");
  TORCH_CHECK(p >= 0, "pdist only supports non-negative p values");
  int64_t n = self.size(0);
  if (n <= 1) return at::empty({0}, self.options());
  at::Tensor out = at::empty({n * (n - 1) / 2}, self.options());
  if (self.size(1) == 0) return out.zero_();
  at::Tensor rows = self.unsqueeze(0);
  launch("forward", true, p, rows, rows, as_row(out), {}, {});
  return out;
}

at::Tensor pdist_backward(const at::Tensor& grad, const at::Tensor& self, double p,
                          const at::Tensor& pdist) {
  TORCH_CHECK(self.is_contiguous(), "_pdist_backward requires self to be contiguous");
  TORCH_CHECK(pdist.is_contiguous(), "_pdist_backward requires pdist to be contiguous");
  if (p == 0 || grad.numel() == 0 || self.numel() == 0) return at::zeros_like(self);
  at::Tensor result = at::empty_like(self, at::MemoryFormat::Contiguous);
  at::Tensor rows = self.unsqueeze(0);
  launch("backward", true, p, rows, rows, result.unsqueeze(0), as_row(grad.contiguous()),
         as_row(pdist));
  return result;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_cdist_forward", cdist_forward);
  m.impl("_cdist_backward", cdist_backward);
  m.impl("_pdist_forward", pdist_forward);
  m.impl("_pdist_backward", pdist_backward);
}

}  // namespace torchvulkan
