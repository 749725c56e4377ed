// fractional_max_pool2d and fractional_max_pool3d (Graham, "Fractional
// Max-Pooling", 2014) with their backwards: the forward is max pooling over
// windows of the kernel's size at the CPU's pseudo-random starts
// (shaders/pool/max_pool.comp's OP_fractional, from the plane's samples),
// the backward max pooling's scatter of each output's gradient to its index.
// ATen's meta functions check the arguments and size the outputs (the 3-D
// backward has none: it checks here as the CPU does).
#include <ATen/native/Resize.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/fractional_max_pool2d_backward_meta.h>
#include <ATen/ops/fractional_max_pool2d_meta.h>
#include <ATen/ops/fractional_max_pool3d_meta.h>
#include <torch/library.h>

#include <tuple>
#include <vector>

#include "aten/context.h"
#include "aten/ops/pool/window.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

// The forward over `spatial` dimensions: samples [N, C, spatial] give, in
// order, W then H (2-D) or D, H, W (3-D), as on the CPU.
void fractional(int64_t spatial, const at::Tensor& self, at::IntArrayRef kernel_size,
                const at::Tensor& samples, const at::Tensor& out, const at::Tensor& indices) {
  TORCH_CHECK(samples.device() == self.device(), "fractional_max_pool: expected random_samples on ",
              self.device(), " but got ", samples.device());
  TORCH_CHECK(samples.scalar_type() == self.scalar_type(),
              "fractional_max_pool: expected random_samples of dtype ", self.scalar_type(),
              " but got ", samples.scalar_type());
  auto k = pool::per_dim(kernel_size, spatial, 1, {1, 1, 1});
  std::vector<int64_t> slots =
      spatial == 2 ? std::vector<int64_t>{-1, 1, 0} : std::vector<int64_t>{0, 1, 2};
  at::Tensor s = samples.dim() == 2 ? samples.unsqueeze(0) : samples;
  std::vector<int64_t> extra = {k[0],        k[1],        k[2],       int64_t(address_of(s)),
                                s.stride(0), s.stride(1), s.stride(2)};
  extra.insert(extra.end(), slots.begin(), slots.end());
  // The samples are read through their address: declared, or the kernel
  // could run before their upload lands (45% of the outputs wrong once in
  // two runs on an H100, never on lavapipe).
  at::Tensor reads[] = {s};
  pool::launch("max_pool.fractional", true, spatial, self, out, extra, indices, reads);
}

std::tuple<at::Tensor, at::Tensor> pool2d(const at::Tensor& self, at::IntArrayRef kernel_size,
                                          at::IntArrayRef output_size, const at::Tensor& samples) {
  Functional<m::structured_fractional_max_pool2d> meta;
  meta.meta(self, kernel_size, output_size, samples);
  fractional(2, self, kernel_size, samples, meta.outputs_[0], meta.outputs_[1]);
  return {meta.outputs_[0], meta.outputs_[1]};
}

std::tuple<at::Tensor&, at::Tensor&> pool2d_out(const at::Tensor& self, at::IntArrayRef kernel_size,
                                                at::IntArrayRef output_size,
                                                const at::Tensor& samples, at::Tensor& out,
                                                at::Tensor& indices) {
  Out<m::structured_fractional_max_pool2d> meta(out, indices);
  meta.meta(self, kernel_size, output_size, samples);
  fractional(2, self, kernel_size, samples, out, indices);
  return {out, indices};
}

std::tuple<at::Tensor, at::Tensor> pool3d(const at::Tensor& self, at::IntArrayRef kernel_size,
                                          at::IntArrayRef output_size, const at::Tensor& samples) {
  Functional<m::structured_fractional_max_pool3d> meta;
  meta.meta(self, kernel_size, output_size, samples);
  fractional(3, self, kernel_size, samples, meta.outputs_[0], meta.outputs_[1]);
  return {meta.outputs_[0], meta.outputs_[1]};
}

std::tuple<at::Tensor&, at::Tensor&> pool3d_out(const at::Tensor& self, at::IntArrayRef kernel_size,
                                                at::IntArrayRef output_size,
                                                const at::Tensor& samples, at::Tensor& out,
                                                at::Tensor& indices) {
  Out<m::structured_fractional_max_pool3d> meta(out, indices);
  meta.meta(self, kernel_size, output_size, samples);
  fractional(3, self, kernel_size, samples, out, indices);
  return {out, indices};
}

at::Tensor& backward2d_out(const at::Tensor& grad_output, const at::Tensor& self,
                           at::IntArrayRef kernel_size, at::IntArrayRef output_size,
                           const at::Tensor& indices, at::Tensor& grad_input) {
  Out<m::structured_fractional_max_pool2d_backward> meta(grad_input);
  meta.meta(grad_output, self, kernel_size, output_size, indices);
  pool::scatter_backward(grad_output, indices, grad_input, 2);
  return grad_input;
}

at::Tensor backward2d(const at::Tensor& grad_output, const at::Tensor& self,
                      at::IntArrayRef kernel_size, at::IntArrayRef output_size,
                      const at::Tensor& indices) {
  Functional<m::structured_fractional_max_pool2d_backward> meta;
  meta.meta(grad_output, self, kernel_size, output_size, indices);
  pool::scatter_backward(grad_output, indices, meta.outputs_[0], 2);
  return meta.outputs_[0];
}

at::Tensor& backward3d_out(const at::Tensor& grad_output, const at::Tensor& self,
                           at::IntArrayRef kernel_size, at::IntArrayRef output_size,
                           const at::Tensor& indices, at::Tensor& grad_input) {
  TORCH_CHECK(output_size.size() == 3, "fractional_max_pool3d_backward: output_size must be 3-D");
  TORCH_CHECK(grad_output.sizes() == indices.sizes(),
              "fractional_max_pool3d_backward(): grad_output and indices differ in size: ",
              grad_output.sizes(), " and ", indices.sizes());
  int64_t first = self.dim() - 3;
  for (int64_t d = 0; d < 3; ++d)
    TORCH_CHECK(grad_output.size(first + d) == output_size[d],
                "fractional_max_pool3d_backward(): gradOutput has the wrong size ",
                grad_output.sizes(), " for output_size ", output_size);
  at::native::resize_output(grad_input, self.sizes());
  pool::scatter_backward(grad_output, indices, grad_input, 3);
  return grad_input;
}

at::Tensor backward3d(const at::Tensor& grad_output, const at::Tensor& self,
                      at::IntArrayRef kernel_size, at::IntArrayRef output_size,
                      const at::Tensor& indices) {
  at::Tensor grad_input = at::empty({0}, self.options());
  return backward3d_out(grad_output, self, kernel_size, output_size, indices, grad_input);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("fractional_max_pool2d", pool2d);
  m.impl("fractional_max_pool2d.output", pool2d_out);
  m.impl("fractional_max_pool2d_backward", backward2d);
  m.impl("fractional_max_pool2d_backward.grad_input", backward2d_out);
  m.impl("fractional_max_pool3d", pool3d);
  m.impl("fractional_max_pool3d.output", pool3d_out);
  m.impl("fractional_max_pool3d_backward", backward3d);
  m.impl("fractional_max_pool3d_backward.grad_input", backward3d_out);
}

}  // namespace torchvulkan
