// max_pool2d_with_indices (one invocation per output element,
// shaders/pool/max_pool2d.comp) and its backward, which adds each output's
// gradient at its index: a native scatter_add over the H x W planes. ATen's
// meta functions check the arguments and size the outputs (ceil_mode
// included); max_pool1d and the max_pool2d module reach these through
// PyTorch's composites.
#include <ATen/ops/max_pool2d_with_indices_backward_meta.h>
#include <ATen/ops/max_pool2d_with_indices_meta.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

// (h, w) of a pooling argument as ATen reads it: one value for both, or
// empty for `fallback` (the stride defaults to the kernel).
std::array<int64_t, 2> pair(at::IntArrayRef value, std::array<int64_t, 2> fallback) {
  if (value.empty()) return fallback;
  return {value[0], value.size() == 1 ? value[0] : value[1]};
}

// A 3-D tensor [C, H, W] is one batch.
at::Tensor batched(const at::Tensor& t) {
  return t.dim() == 3 ? t.unsqueeze(0) : t;
}

void forward(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef stride,
             at::IntArrayRef padding, at::IntArrayRef dilation, const at::Tensor& values,
             const at::Tensor& indices) {
  if (values.numel() == 0) return;
  at::Tensor x = batched(input), v = batched(values), idx = batched(indices);
  auto kernel = pair(kernel_size, {0, 0});
  auto steps = pair(stride, kernel);
  auto pad = pair(padding, {0, 0});
  auto dil = pair(dilation, {1, 1});
  std::vector<int64_t> words = {reinterpret_cast<int64_t>(x.const_data_ptr()),
                                reinterpret_cast<int64_t>(v.data_ptr()),
                                reinterpret_cast<int64_t>(idx.data_ptr()),
                                x.size(0) * x.size(1),
                                x.size(1),
                                x.size(2),
                                x.size(3),
                                v.size(2),
                                v.size(3)};
  for (const at::Tensor* t : {&x, &v, &idx})
    for (int64_t d = 0; d < 4; ++d) words.push_back(t->stride(d));
  words.insert(words.end(),
               {kernel[0], kernel[1], steps[0], steps[1], pad[0], pad[1], dil[0], dil[1]});
  rt::Device& dev = device_for(input);
  const rt::Kernel& k =
      dev.pipelines().get(std::string("max_pool2d.forward.") + dtype_name(input.scalar_type()));
  uint64_t push = 0;  // the stream writes the parameters' address here
  std::vector<rt::Access> accesses = {span_of(x, false), span_of(v, true), span_of(idx, true)};
  dev.stream().dispatch(k, &push, sizeof(push), words.data(),
                        static_cast<uint32_t>(words.size() * sizeof(int64_t)),
                        static_cast<uint64_t>(v.numel()), accesses);
}

void backward(const at::Tensor& grad_output, const at::Tensor& indices,
              const at::Tensor& grad_input) {
  at::Tensor g = batched(grad_output), idx = batched(indices), gi = batched(grad_input);
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

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("max_pool2d_with_indices", max_pool2d_with_indices);
  m.impl("max_pool2d_with_indices.out", max_pool2d_with_indices_out);
  m.impl("max_pool2d_with_indices_backward", max_pool2d_with_indices_backward);
  m.impl("max_pool2d_with_indices_backward.grad_input", max_pool2d_with_indices_backward_out);
}

}  // namespace torchvulkan
