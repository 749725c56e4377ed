// max_pool2d_with_indices and adaptive_max_pool2d (one invocation per
// output element, shaders/pool/max_pool2d.comp, adaptive_max_pool2d.comp)
// and their backwards, which add each output's gradient at its index: a
// native scatter_add over the H x W planes. ATen's meta functions check the
// arguments and size the outputs (ceil_mode included); max_pool1d,
// adaptive_max_pool1d and the modules reach these through PyTorch's
// composites.
#include <ATen/ops/adaptive_max_pool2d_backward_meta.h>
#include <ATen/ops/adaptive_max_pool2d_meta.h>
#include <ATen/ops/max_pool2d_with_indices_backward_meta.h>
#include <ATen/ops/max_pool2d_with_indices_meta.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

#include "aten/ops/pool/planes.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

void forward(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef stride,
             at::IntArrayRef padding, at::IntArrayRef dilation, const at::Tensor& values,
             const at::Tensor& indices) {
  auto kernel = pool::pair(kernel_size, {0, 0});
  auto steps = pool::pair(stride, kernel);
  auto pad = pool::pair(padding, {0, 0});
  auto dil = pool::pair(dilation, {1, 1});
  pool::launch_planes("max_pool2d.forward", {{input, false}, {values, true}, {indices, true}}, 1,
                      {kernel[0], kernel[1], steps[0], steps[1], pad[0], pad[1], dil[0], dil[1]});
}

void backward(const at::Tensor& grad_output, const at::Tensor& indices,
              const at::Tensor& grad_input) {
  at::Tensor g = pool::batched(grad_output), idx = pool::batched(indices),
             gi = pool::batched(grad_input);
  if (gi.numel() == 0) return;
  int64_t n = gi.size(0), c = gi.size(1);
  at::Tensor planes = at::zeros({n, c, gi.size(2) * gi.size(3)}, grad_input.options());
  planes.scatter_add_(2, idx.reshape({n, c, -1}), g.reshape({n, c, -1}));
  gi.copy_(planes.view(gi.sizes()));
}

std::tuple<at::Tensor, at::Tensor> max_pool2d_with_indices(
    const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
    at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode) {
  Functional<m::structured_max_pool2d_with_indices> meta;
  meta.meta(self, kernel_size, stride, padding, dilation, ceil_mode);
  forward(self, kernel_size, stride, padding, dilation, meta.outputs_[0], meta.outputs_[1]);
  return {meta.outputs_[0], meta.outputs_[1]};
}

std::tuple<at::Tensor&, at::Tensor&> max_pool2d_with_indices_out(
    const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
    at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode, at::Tensor& out,
    at::Tensor& indices) {
  Out<m::structured_max_pool2d_with_indices> meta(out, indices);
  meta.meta(self, kernel_size, stride, padding, dilation, ceil_mode);
  forward(self, kernel_size, stride, padding, dilation, out, indices);
  return {out, indices};
}

at::Tensor max_pool2d_with_indices_backward(const at::Tensor& grad_output, const at::Tensor& self,
                                            at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                            at::IntArrayRef padding, at::IntArrayRef dilation,
                                            bool ceil_mode, const at::Tensor& indices) {
  Functional<m::structured_max_pool2d_with_indices_backward> meta;
  meta.meta(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices);
  backward(grad_output, indices, meta.outputs_[0]);
  return meta.outputs_[0];
}

at::Tensor& max_pool2d_with_indices_backward_out(
    const at::Tensor& grad_output, const at::Tensor& self, at::IntArrayRef kernel_size,
    at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode,
    const at::Tensor& indices, at::Tensor& grad_input) {
  Out<m::structured_max_pool2d_with_indices_backward> meta(grad_input);
  meta.meta(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices);
  backward(grad_output, indices, grad_input);
  return grad_input;
}

void adaptive_forward(const at::Tensor& input, const at::Tensor& values,
                      const at::Tensor& indices) {
  pool::launch_planes("adaptive_max_pool2d.forward",
                      {{input, false}, {values, true}, {indices, true}}, 1, {});
}

std::tuple<at::Tensor, at::Tensor> adaptive_max_pool2d(const at::Tensor& self,
                                                       at::IntArrayRef output_size) {
  Functional<m::structured_adaptive_max_pool2d> meta;
  meta.meta(self, output_size);
  adaptive_forward(self, meta.outputs_[0], meta.outputs_[1]);
  return {meta.outputs_[0], meta.outputs_[1]};
}

std::tuple<at::Tensor&, at::Tensor&> adaptive_max_pool2d_out(const at::Tensor& self,
                                                             at::IntArrayRef output_size,
                                                             at::Tensor& out, at::Tensor& indices) {
  Out<m::structured_adaptive_max_pool2d> meta(out, indices);
  meta.meta(self, output_size);
  adaptive_forward(self, out, indices);
  return {out, indices};
}

at::Tensor adaptive_max_pool2d_backward(const at::Tensor& grad_output, const at::Tensor& self,
                                        const at::Tensor& indices) {
  Functional<m::structured_adaptive_max_pool2d_backward> meta;
  meta.meta(grad_output, self, indices);
  backward(grad_output, indices, meta.outputs_[0]);
  return meta.outputs_[0];
}

at::Tensor& adaptive_max_pool2d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                             const at::Tensor& indices, at::Tensor& grad_input) {
  Out<m::structured_adaptive_max_pool2d_backward> meta(grad_input);
  meta.meta(grad_output, self, indices);
  backward(grad_output, indices, grad_input);
  return grad_input;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("adaptive_max_pool2d", adaptive_max_pool2d);
  m.impl("adaptive_max_pool2d.out", adaptive_max_pool2d_out);
  m.impl("adaptive_max_pool2d_backward", adaptive_max_pool2d_backward);
  m.impl("adaptive_max_pool2d_backward.grad_input", adaptive_max_pool2d_backward_out);
  m.impl("max_pool2d_with_indices", max_pool2d_with_indices);
  m.impl("max_pool2d_with_indices.out", max_pool2d_with_indices_out);
  m.impl("max_pool2d_with_indices_backward", max_pool2d_with_indices_backward);
  m.impl("max_pool2d_with_indices_backward.grad_input", max_pool2d_with_indices_backward_out);
}

}  // namespace torchvulkan
