// binary_cross_entropy and its backward, as ATen's CPU functions do them: the
// elementwise term ("loss.binary_cross_entropy[_backward]",
// shaders/loss/pointwise.comp), then the weight and the reduction through
// native ops. The CPU's check that input and target lie in [0, 1] would need
// a read back per call; out-of-range inputs give NaN here instead.
#include <ATen/core/Reduction.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/empty_like.h>
#include <torch/library.h>

#include "aten/ops/loss/pointwise.h"

namespace torchvulkan {
namespace {

using at::Tensor;
using loss::Params;

// ATen's clamp of the gradient's denominator (a float, rounded to the dtype).
constexpr float kEpsilon = 1e-12f;

Tensor weight_of(const std::optional<Tensor>& weight) {
  return weight && weight->defined() ? *weight : Tensor();
}

Tensor& binary_cross_entropy_out(const Tensor& input, const Tensor& target,
                                 const std::optional<Tensor>& weight_opt, int64_t reduction,
                                 Tensor& loss) {
  Tensor unreduced = reduction == at::Reduction::None ? loss : at::empty_like(input);
  auto iter = at::TensorIteratorConfig()
                  .add_output(unreduced)
                  .add_const_input(input)
                  .add_const_input(target)
                  .build();
  loss::launch(iter, "binary_cross_entropy", [](auto) { return Params{}; });
  if (Tensor weight = weight_of(weight_opt); weight.defined()) unreduced.mul_(weight);
  if (reduction != at::Reduction::None) {
    at::native::resize_output(loss, {});
    loss.copy_(reduction == at::Reduction::Mean ? unreduced.mean() : unreduced.sum());
  }
  return loss;
}

Tensor binary_cross_entropy(const Tensor& input, const Tensor& target,
                            const std::optional<Tensor>& weight, int64_t reduction) {
  Tensor loss = at::empty_like(input);
  return binary_cross_entropy_out(input, target, weight, reduction, loss);
}

Tensor& binary_cross_entropy_backward_out(const Tensor& grad, const Tensor& input,
                                          const Tensor& target,
                                          const std::optional<Tensor>& weight_opt,
                                          int64_t reduction, Tensor& grad_input) {
  auto iter = at::TensorIteratorConfig()
                  .add_output(grad_input)
                  .add_const_input(grad)
                  .add_const_input(input)
                  .add_const_input(target)
                  .build();
  loss::launch(iter, "binary_cross_entropy_backward", [](c10::ScalarType t) {
    return Params{scalar_bits(static_cast<double>(kEpsilon), t)};
  });
  if (Tensor weight = weight_of(weight_opt); weight.defined()) grad_input.mul_(weight);
  if (reduction == at::Reduction::Mean) grad_input.div_(input.numel());
  return grad_input;
}

Tensor binary_cross_entropy_backward(const Tensor& grad, const Tensor& input, const Tensor& target,
                                     const std::optional<Tensor>& weight, int64_t reduction) {
  Tensor grad_input = at::empty_like(input);
  return binary_cross_entropy_backward_out(grad, input, target, weight, reduction, grad_input);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("binary_cross_entropy", binary_cross_entropy);
  m.impl("binary_cross_entropy.out", binary_cross_entropy_out);
  m.impl("binary_cross_entropy_backward", binary_cross_entropy_backward);
  m.impl("binary_cross_entropy_backward.grad_input", binary_cross_entropy_backward_out);
}

}  // namespace torchvulkan
