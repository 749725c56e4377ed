// PReLU, RReLU and GLU with their backwards, as native elementwise ops:
//   prelu(x, a) = x > 0 ? x : a * x        (a broadcast over x)
//   rrelu(x)    = x > 0 ? x : r * x        (training: r ~ U(lower, upper) per
//                 element, kept in `noise` for the backward; else r is
//                 (lower + upper) / 2, a leaky ReLU)
//   glu(x)      = first half * sigmoid(second half), halves along `dim`
//                 (forward-mode AD: glu_jvp, and glu_backward_jvp for its backward)
// ATen reshapes PReLU's weight to broadcast before calling _prelu_kernel;
// its weight gradient comes back at x's shape and autograd sums it down, as
// with the CPU kernel.
#include <ATen/TensorOperators.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/glu_backward_jvp_native.h>
#include <ATen/ops/glu_meta.h>
#include <ATen/ops/leaky_relu.h>
#include <ATen/ops/leaky_relu_backward.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/sigmoid.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros_like.h>
#include <torch/library.h>

#include "aten/structured.h"

namespace torchvulkan {
namespace {

at::Tensor prelu(const at::Tensor& self, const at::Tensor& weight) {
  return at::where(self > 0, self, weight * self);
}

std::tuple<at::Tensor, at::Tensor> prelu_backward(const at::Tensor& grad, const at::Tensor& self,
                                                  const at::Tensor& weight) {
  at::Tensor positive = self > 0;
  return {at::where(positive, grad, weight * grad),
          at::where(positive, at::zeros_like(self), self * grad)};
}

at::Tensor& rrelu_out(const at::Tensor& self, at::Tensor& noise, const at::Scalar& lower,
                      const at::Scalar& upper, bool training,
                      std::optional<at::Generator> generator, at::Tensor& out) {
  if (!training) {
    at::Scalar slope = (lower.toDouble() + upper.toDouble()) / 2;
    return at::leaky_relu_out(out, self, slope);
  }
  at::Tensor slopes =
      at::empty_like(self).uniform_(lower.toDouble(), upper.toDouble(), std::move(generator));
  noise.copy_(at::where(self <= 0, slopes, 1));
  return at::mul_out(out, self, noise);
}

at::Tensor rrelu(const at::Tensor& self, at::Tensor& noise, const at::Scalar& lower,
                 const at::Scalar& upper, bool training, std::optional<at::Generator> generator) {
  at::Tensor out = at::empty_like(self);
  return rrelu_out(self, noise, lower, upper, training, std::move(generator), out);
}

at::Tensor& rrelu_(at::Tensor& self, at::Tensor& noise, const at::Scalar& lower,
                   const at::Scalar& upper, bool training, std::optional<at::Generator> generator) {
  return rrelu_out(self, noise, lower, upper, training, std::move(generator), self);
}

// The noise it drew in training (when the range is not empty), else a
// leaky ReLU's gradient.
at::Tensor rrelu_backward(const at::Tensor& grad_output, const at::Tensor& self,
                          const at::Tensor& noise, const at::Scalar& lower, const at::Scalar& upper,
                          bool training, bool self_is_result) {
  if (training && upper.toDouble() - lower.toDouble() > 1e-6) return grad_output * noise;
  at::Scalar slope = (lower.toDouble() + upper.toDouble()) / 2;
  return at::leaky_relu_backward(grad_output, self, slope, self_is_result);
}

void glu_into(const at::Tensor& self, int64_t dim, const at::Tensor& out) {
  auto halves = self.chunk(2, dim);
  at::mul_out(const_cast<at::Tensor&>(out), halves[0], at::sigmoid(halves[1]));
}

at::Tensor glu(const at::Tensor& self, int64_t dim) {
  Functional<at::meta::structured_glu> meta;
  meta.meta(self, dim);
  glu_into(self, dim, meta.outputs_[0]);
  return meta.outputs_[0];
}

at::Tensor& glu_out(const at::Tensor& self, int64_t dim, at::Tensor& out) {
  Out<at::meta::structured_glu> meta(out);
  meta.meta(self, dim);
  glu_into(self, dim, out);
  return out;
}

// d/da = sigmoid(b), d/db = a * sigmoid(b) * (1 - sigmoid(b)).
at::Tensor gated_backward(const at::Tensor& grad_output, const at::Tensor& self, int64_t dim) {
  TORCH_CHECK(self.dim() > 0, "glu does not support 0-dimensional tensors");
  int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(self.size(wrapped) % 2 == 0, "Halving dimension must be even, but dimension ",
              wrapped, " is size ", self.size(wrapped));
  auto halves = self.chunk(2, wrapped);
  at::Tensor gate = at::sigmoid(halves[1]);
  at::Tensor grad_first = grad_output * gate;
  return at::cat({grad_first, grad_first * halves[0] * (1 - gate)}, wrapped);
}

at::Tensor& glu_backward_out(const at::Tensor& grad_output, const at::Tensor& self, int64_t dim,
                             at::Tensor& grad_input) {
  at::Tensor result = gated_backward(grad_output, self, dim);
  at::native::resize_output(grad_input, result.sizes());
  return grad_input.copy_(result);
}

// Forward-mode AD: glu's tangent along dx = (da, db),
//   d glu = da * sigmoid(b) + glu * (1 - sigmoid(b)) * db.
at::Tensor glu_jvp(const at::Tensor& glu, const at::Tensor& x, const at::Tensor& dx, int64_t dim) {
  dim = c10::maybe_wrap_dim(dim, x.dim());
  int64_t half = glu.size(dim);
  at::Tensor gate = at::sigmoid(x.narrow(dim, half, half));
  at::Tensor db = dx.narrow(dim, half, half);
  return dx.narrow(dim, 0, half) * gate + glu * (db - gate * db);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_prelu_kernel", prelu);
  m.impl("_prelu_kernel_backward", prelu_backward);
  m.impl("rrelu_with_noise", rrelu);
  m.impl("rrelu_with_noise.out", rrelu_out);
  m.impl("rrelu_with_noise_", rrelu_);
  m.impl("rrelu_with_noise_backward", rrelu_backward);
  m.impl("glu", glu);
  m.impl("glu.out", glu_out);
  m.impl("glu_backward", gated_backward);
  m.impl("glu_backward.grad_input", glu_backward_out);
  m.impl("glu_jvp", glu_jvp);
  // ATen's glu_backward_jvp (the tangent of glu_backward) is written with
  // device-generic ops but registered for CPU and CUDA only.
  m.impl("glu_backward_jvp", at::native::glu_backward_jvp);
}

}  // namespace torchvulkan
