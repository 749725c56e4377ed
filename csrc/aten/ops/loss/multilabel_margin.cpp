// multilabel_margin_loss's forward and backward as native ATen ops: for a
// row x of C classes whose targets are y_j (target row n up to its first
// negative entry),
//   loss = sum_j sum_{i not a target} max(0, 1 - x[y_j] + x[i]) / C
// then reduced (none, mean, sum). The per-class sums come from one kernel
// (shaders/loss/multilabel_margin.comp), which also reports a target out of
// range (IndexError at the next synchronization); the arguments are checked
// by ATen's own shape check, as on the CPU.
#include <ATen/TensorOperators.h>
#include <ATen/core/Reduction.h>
#include <ATen/native/LossMulti.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <torch/library.h>

#include <string>
#include <tuple>
#include <vector>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan {
namespace {

// The checked input as contiguous [N, C] rows and target likewise.
std::tuple<at::Tensor, at::Tensor> rows_of(const at::Tensor& input, const at::Tensor& target) {
  int64_t frames = 0, classes = 0;
  at::native::multilabel_margin_loss_shape_check(frames, classes, input.dim(), input, target);
  TORCH_CHECK(target.device() == input.device(), "multilabel_margin_loss: expected target on ",
              input.device(), " but got ", target.device());
  TORCH_CHECK(target.scalar_type() == at::kLong,
              "multilabel_margin_loss: expected target of dtype Long but got ",
              target.scalar_type());
  TORCH_CHECK_NOT_IMPLEMENTED(at::isFloatingType(input.scalar_type()),
                              "\"multilabel_margin_loss\" not implemented for '",
                              c10::toString(input.scalar_type()), "'");
  return {input.contiguous().view({frames, classes}), target.contiguous().view({frames, classes})};
}

// multilabel_margin.<op>: the per-class sums into `out`; `is_target` is
// written forward and read backward.
void launch(const char* op, const at::Tensor& x, const at::Tensor& y, const at::Tensor& out,
            const at::Tensor& is_target) {
  bool forward = std::string(op) == "forward";
  std::vector<int64_t> words = {int64_t(address_of(x)),
                                int64_t(address_of(y)),
                                int64_t(address_of(out)),
                                int64_t(address_of(is_target)),
                                x.size(0),
                                x.size(1)};
  launch_with_params(
      device_for(x), std::string("multilabel_margin.") + op + "." + dtype_name(x.scalar_type()),
      words, static_cast<uint64_t>(x.numel()),
      {span_of(x, false), span_of(y, false), span_of(out, true), span_of(is_target, forward)});
}

std::tuple<at::Tensor&, at::Tensor&> forward_out(const at::Tensor& input, const at::Tensor& target,
                                                 int64_t reduction, at::Tensor& output,
                                                 at::Tensor& is_target) {
  auto [x, y] = rows_of(input, target);
  at::Tensor sums = at::empty_like(x), flags = at::empty_like(x);
  launch("forward", x, y, sums, flags);
  at::Tensor loss = sums.sum(1) / x.size(1);
  if (reduction == at::Reduction::Mean)
    loss = loss.mean();
  else if (reduction == at::Reduction::Sum)
    loss = loss.sum();
  else if (target.dim() <= 1)
    loss = loss.reshape({});
  at::native::resize_output(output, loss.sizes());
  output.copy_(loss);
  at::native::resize_output(is_target, target.sizes());
  is_target.copy_(flags.view(target.sizes()));
  return {output, is_target};
}

std::tuple<at::Tensor, at::Tensor> forward(const at::Tensor& input, const at::Tensor& target,
                                           int64_t reduction) {
  at::Tensor output = at::empty({0}, input.options()), is_target = at::empty({0}, input.options());
  forward_out(input, target, reduction, output, is_target);
  return {output, is_target};
}

at::Tensor& backward_out(const at::Tensor& grad_output, const at::Tensor& input,
                         const at::Tensor& target, int64_t reduction, const at::Tensor& is_target,
                         at::Tensor& grad_input) {
  auto [x, y] = rows_of(input, target);
  TORCH_CHECK(is_target.sizes() == target.sizes(),
              "inconsistent is_target size: ", is_target.sizes(),
              " for target of size: ", target.sizes());
  at::Tensor counts = at::empty_like(x);
  launch("backward", x, y, counts, is_target.to(x.scalar_type()).contiguous().view(x.sizes()));
  // The per-row factor: grad (one per row, or one for all) / C, / N for mean.
  at::Tensor g = reduction == at::Reduction::None ? grad_output.reshape({-1, 1}) : grad_output;
  double scale = 1.0 / x.size(1) / (reduction == at::Reduction::Mean ? x.size(0) : 1);
  at::native::resize_output(grad_input, input.sizes());
  grad_input.copy_((counts * (g * scale)).view(input.sizes()));
  return grad_input;
}

at::Tensor backward(const at::Tensor& grad_output, const at::Tensor& input,
                    const at::Tensor& target, int64_t reduction, const at::Tensor& is_target) {
  at::Tensor grad_input = at::empty({0}, input.options());
  return backward_out(grad_output, input, target, reduction, is_target, grad_input);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("multilabel_margin_loss_forward", forward);
  m.impl("multilabel_margin_loss_forward.output", forward_out);
  m.impl("multilabel_margin_loss_backward", backward);
  m.impl("multilabel_margin_loss_backward.grad_input", backward_out);
}

}  // namespace torchvulkan
