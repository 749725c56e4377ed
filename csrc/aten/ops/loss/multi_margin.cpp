// multi_margin_loss and its backward (functional and out=) as native ATen
// ops, the CPU's formulas: for a row x with target y over C classes,
//   z_i = margin - x_y + x_i,   h_i = max(z_i, 0)^p * w_y  (i != y)
//   loss = sum_i h_i / C
//   d loss / d x_i = p max(z_i, 0)^(p - 1) w_y / C  (i != y; 0 where z_i <= 0)
//   d loss / d x_y = -sum_{i != y} d loss / d x_i
// then reduced (none, mean, sum). The arguments are checked by ATen's own
// shape check, as on the CPU; a target out of range is reported by the
// gather (IndexError at the next synchronization).
#include <ATen/TensorOperators.h>
#include <ATen/core/Reduction.h>
#include <ATen/native/LossMulti.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros_like.h>
#include <torch/library.h>

#include "aten/out.h"

namespace torchvulkan {
namespace {

void check(const at::Tensor& input, const at::Tensor& target, const at::Scalar& p,
           const std::optional<at::Tensor>& weight) {
  TORCH_CHECK(p.equal(1) || p.equal(2), "only p == 1 and p == 2 supported");
  int64_t frames = 0, classes = 0;
  at::native::multi_margin_loss_shape_check(frames, classes, input.dim(), input, target, weight);
}

// The rows [N, C], their targets [N, 1], and each row's weight w_y [N, 1] (or undefined).
struct Rows {
  at::Tensor x, y, w;
};

Rows rows_of(const at::Tensor& input, const at::Tensor& target,
             const std::optional<at::Tensor>& weight) {
  at::Tensor x = input.dim() == 2 ? input : input.reshape({1, -1});
  at::Tensor y = target.reshape({-1, 1}).to(at::kLong);
  at::Tensor w = weight && weight->defined()
                     ? weight->reshape({-1}).index_select(0, y.view(-1)).view({-1, 1})
                     : at::Tensor();
  return {x, y, w};
}

// max(margin - x_y + x_i, 0), zero at i = y.
at::Tensor hinge(const Rows& r, const at::Scalar& margin) {
  at::Tensor z = (r.x - r.x.gather(1, r.y) + margin).clamp_min(0);
  return z.scatter(1, r.y, 0);
}

at::Tensor multi_margin_loss(const at::Tensor& input, const at::Tensor& target, const at::Scalar& p,
                             const at::Scalar& margin, const std::optional<at::Tensor>& weight,
                             int64_t reduction) {
  check(input, target, p, weight);
  Rows r = rows_of(input, target, weight);
  at::Tensor h = hinge(r, margin);
  if (p.equal(2)) h = h * h;
  if (r.w.defined()) h = h * r.w;
  at::Tensor loss = h.sum(1) / r.x.size(1);
  if (reduction == at::Reduction::Mean) return loss.mean();
  if (reduction == at::Reduction::Sum) return loss.sum();
  return target.dim() == 0 ? loss.reshape({}) : loss;
}

at::Tensor multi_margin_loss_backward(const at::Tensor& grad_output, const at::Tensor& input,
                                      const at::Tensor& target, const at::Scalar& p,
                                      const at::Scalar& margin,
                                      const std::optional<at::Tensor>& weight, int64_t reduction) {
  check(input, target, p, weight);
  Rows r = rows_of(input, target, weight);
  at::Tensor z = hinge(r, margin);
  at::Tensor d = p.equal(2) ? 2 * z : at::where(z > 0, at::ones_like(z), at::zeros_like(z));
  if (r.w.defined()) d = d * r.w;
  // The per-row factor: grad (one per row, or one for all) / C, / N for mean.
  at::Tensor g = reduction == at::Reduction::None ? grad_output.reshape({-1, 1}) : grad_output;
  double scale = 1.0 / r.x.size(1) / (reduction == at::Reduction::Mean ? r.x.size(0) : 1);
  d = d * (g * scale);
  at::Tensor grad = d.scatter(1, r.y, -d.sum(1, true));
  return grad.view(input.sizes());
}

at::Tensor& multi_margin_loss_out(const at::Tensor& input, const at::Tensor& target,
                                  const at::Scalar& p, const at::Scalar& margin,
                                  const std::optional<at::Tensor>& weight, int64_t reduction,
                                  at::Tensor& out) {
  return write_out(torchvulkan::multi_margin_loss(input, target, p, margin, weight, reduction),
                   out);
}

at::Tensor& multi_margin_loss_backward_out(const at::Tensor& grad_output, const at::Tensor& input,
                                           const at::Tensor& target, const at::Scalar& p,
                                           const at::Scalar& margin,
                                           const std::optional<at::Tensor>& weight,
                                           int64_t reduction, at::Tensor& grad_input) {
  return write_out(torchvulkan::multi_margin_loss_backward(grad_output, input, target, p, margin,
                                                           weight, reduction),
                   grad_input);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("multi_margin_loss", multi_margin_loss);
  m.impl("multi_margin_loss.out", multi_margin_loss_out);
  m.impl("multi_margin_loss_backward", multi_margin_loss_backward);
  m.impl("multi_margin_loss_backward.grad_input", multi_margin_loss_backward_out);
}

}  // namespace torchvulkan
