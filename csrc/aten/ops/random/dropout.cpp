// native_dropout (what F.dropout calls in training on this device, as on
// CUDA) and its backward: one launch each, the mask drawn in the same kernel
// that scales the input, where the CPU's composite takes four passes.
#include <ATen/TensorIterator.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/native_dropout_backward_native.h>
#include <ATen/ops/ones_like.h>
#include <torch/library.h>

#include "aten/launch.h"
#include "aten/ops/random/sample.h"

namespace torchvulkan {
namespace {

std::tuple<at::Tensor, at::Tensor> native_dropout(const at::Tensor& input, double p,
                                                  std::optional<bool> train) {
  if (train.has_value() && !*train) {
    return {input.clone(), at::ones_like(input, input.options().dtype(at::kBool))};
  }
  // The CPU's errors, in its order: its mask's bernoulli_(1 - p), then
  // input * mask * scale for integer inputs.
  double keep = 1 - p;
  TORCH_CHECK(0 <= keep && keep <= 1, "bernoulli_ expects p to be in [0, 1], but got p=", keep);
  TORCH_CHECK(input.is_floating_point(),
              "result type Float can't be cast to the desired output type ", input.scalar_type());
  at::Tensor output = at::empty_like(input);
  at::Tensor mask = at::empty_like(input, input.options().dtype(at::kBool));
  auto iter = at::TensorIteratorConfig()
                  .add_output(output)
                  .add_output(mask)
                  .add_const_input(input)
                  .check_all_same_dtype(false)
                  .build();
  double scale = keep == 0 ? 0 : 1 / keep;  // p = 1 drops everything, with no 1/0
  random::launch("dropout.forward", iter, std::nullopt, random::threshold(keep),
                 random::real_bits(scale, input.scalar_type()));
  return {output, mask};
}

at::Tensor native_dropout_backward(const at::Tensor& grad, const at::Tensor& mask, double scale) {
  // Other masks (and broadcasting) keep the CPU's composite of device ops.
  if (mask.scalar_type() != at::kBool || !grad.is_floating_point() ||
      mask.sizes() != grad.sizes()) {
    return at::native::native_dropout_backward(grad, mask, scale);
  }
  at::Tensor result = at::empty_like(grad);
  auto iter = at::TensorIteratorConfig()
                  .add_output(result)
                  .add_const_input(grad)
                  .add_const_input(mask)
                  .check_all_same_dtype(false)
                  .build();
  std::string kernel = std::string("dropout.backward.") + dtype_name(grad.scalar_type());
  launch_elementwise(kernel, iter, {random::real_bits(scale, grad.scalar_type())});
  return result;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("native_dropout", native_dropout);
  m.impl("native_dropout_backward", native_dropout_backward);
}

}  // namespace torchvulkan
