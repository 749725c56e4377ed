// max_pool{2,3}d_with_indices and adaptive_max_pool{2,3}d, one invocation
// per output element (shaders/pool/max_pool.comp), and their backwards,
// which add each output's gradient at its index: a native scatter_add over
// the planes. ATen's meta functions check the arguments and size the
// outputs of the structured ones; max_pool3d_with_indices is checked and
// sized here as the CPU does. max_pool1d, adaptive_max_pool1d and the
// modules reach these through PyTorch's composites.
#include <ATen/native/Pool.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/adaptive_max_pool2d_backward_meta.h>
#include <ATen/ops/adaptive_max_pool2d_meta.h>
#include <ATen/ops/adaptive_max_pool3d_backward_meta.h>
#include <ATen/ops/adaptive_max_pool3d_meta.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/max_pool2d_with_indices_backward_meta.h>
#include <ATen/ops/max_pool2d_with_indices_meta.h>
#include <torch/library.h>

#include "aten/ops/pool/window.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

// A max pooling window resolved as (d, h, w) triples.
struct Window {
  std::array<int64_t, 3> kernel, stride, padding, dilation;
};

Window resolve(int64_t spatial, at::IntArrayRef kernel_size, at::IntArrayRef stride,
               at::IntArrayRef padding, at::IntArrayRef dilation) {
  auto kernel = pool::per_dim(kernel_size, spatial, 1, {1, 1, 1});
  return {kernel, pool::per_dim(stride, spatial, 1, kernel),
          pool::per_dim(padding, spatial, 0, {0, 0, 0}),
          pool::per_dim(dilation, spatial, 1, {1, 1, 1})};
}

void forward(int64_t spatial, const at::Tensor& input, const Window& w, const at::Tensor& values,
             const at::Tensor& indices) {
  std::vector<int64_t> words;
  for (const auto* part : {&w.kernel, &w.stride, &w.padding, &w.dilation})
    words.insert(words.end(), part->begin(), part->end());
  pool::launch("max_pool.window", true, spatial, input, values, words, indices);
}

std::tuple<at::Tensor, at::Tensor> max_pool2d_with_indices(
    const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
    at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode) {
  Functional<m::structured_max_pool2d_with_indices> meta;
  meta.meta(self, kernel_size, stride, padding, dilation, ceil_mode);
  forward(2, self, resolve(2, kernel_size, stride, padding, dilation), meta.outputs_[0],
          meta.outputs_[1]);
  return {meta.outputs_[0], meta.outputs_[1]};
}

std::tuple<at::Tensor&, at::Tensor&> max_pool2d_with_indices_out(
    const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
    at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode, at::Tensor& out,
    at::Tensor& indices) {
  Out<m::structured_max_pool2d_with_indices> meta(out, indices);
  meta.meta(self, kernel_size, stride, padding, dilation, ceil_mode);
  forward(2, self, resolve(2, kernel_size, stride, padding, dilation), out, indices);
  return {out, indices};
}

at::Tensor max_pool2d_with_indices_backward(const at::Tensor& grad_output, const at::Tensor& self,
                                            at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                            at::IntArrayRef padding, at::IntArrayRef dilation,
                                            bool ceil_mode, const at::Tensor& indices) {
  Functional<m::structured_max_pool2d_with_indices_backward> meta;
  meta.meta(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices);
  pool::scatter_backward(grad_output, indices, meta.outputs_[0], 2);
  return meta.outputs_[0];
}

at::Tensor& max_pool2d_with_indices_backward_out(
    const at::Tensor& grad_output, const at::Tensor& self, at::IntArrayRef kernel_size,
    at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode,
    const at::Tensor& indices, at::Tensor& grad_input) {
  Out<m::structured_max_pool2d_with_indices_backward> meta(grad_input);
  meta.meta(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices);
  pool::scatter_backward(grad_output, indices, grad_input, 2);
  return grad_input;
}

// max_pool3d's arguments, checked as the CPU checks them (its messages).
Window resolve_3d(at::IntArrayRef kernel_size, at::IntArrayRef stride, at::IntArrayRef padding,
                  at::IntArrayRef dilation) {
  TORCH_CHECK(kernel_size.size() == 1 || kernel_size.size() == 3,
              "max_pool3d: kernel_size must either be a single int, or a tuple of three ints")
  TORCH_CHECK(stride.size() == 0 || stride.size() == 1 || stride.size() == 3,
              "max_pool3d: stride must either be omitted, a single int, or a tuple of three ints")
  TORCH_CHECK(padding.size() == 1 || padding.size() == 3,
              "max_pool3d: padding must either be a single int, or a tuple of three ints");
  TORCH_CHECK(dilation.size() == 1 || dilation.size() == 3,
              "max_pool3d: dilation must be either a single int, or a tuple of three ints");
  return resolve(3, kernel_size, stride, padding, dilation);
}

// at::native::pool3d_shape_check's arguments (ints, as the CPU narrows them).
template <class Check, class... Extra>
void check_3d(Check check, const at::Tensor& input, const Window& w,
              const std::array<int64_t, 3>& out, Extra&&... extra) {
  auto i = [](int64_t v) { return at::native::safe_downcast<int, int64_t>(v); };
  const auto &k = w.kernel, &s = w.stride, &p = w.padding, &d = w.dilation;
  check(input, std::forward<Extra>(extra)..., input.size(-4), i(k[0]), i(k[1]), i(k[2]), i(s[0]),
        i(s[1]), i(s[2]), i(p[0]), i(p[1]), i(p[2]), i(d[0]), i(d[1]), i(d[2]), input.size(-3),
        input.size(-2), input.size(-1), out[0], out[1], out[2], "max_pool3d_with_indices()");
}

// The outputs' sizes after the CPU's checks; its dtypes (not bool).
std::vector<int64_t> max_pool3d_sizes(const at::Tensor& input, const Window& w, bool ceil_mode) {
  TORCH_CHECK(input.dim() == 4 || input.dim() == 5,
              "non-empty 4D or 5D (batch mode) tensor expected for input");
  TORCH_CHECK_NOT_IMPLEMENTED(input.scalar_type() != c10::kBool,
                              "\"max_pool3d_with_indices\" not implemented for 'Bool'");
  std::array<int64_t, 3> out;
  for (int64_t d = 0; d < 3; ++d)
    out[d] = at::native::pooling_output_shape<int64_t>(input.size(d - 3), w.kernel[d], w.padding[d],
                                                       w.stride[d], w.dilation[d], ceil_mode);
  check_3d([](auto&&... args) { at::native::pool3d_shape_check(args...); }, input, w, out);
  std::vector<int64_t> sizes(input.sizes().begin(), input.sizes().end() - 3);
  sizes.insert(sizes.end(), out.begin(), out.end());
  return sizes;
}

// The CPU's layout: a channels-last 5-D input gives channels-last outputs.
c10::MemoryFormat layout_3d(const at::Tensor& input) {
  return input.dim() == 5 ? input.suggest_memory_format() : c10::MemoryFormat::Contiguous;
}

std::tuple<at::Tensor&, at::Tensor&> max_pool3d_with_indices_out(
    const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
    at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode, at::Tensor& out,
    at::Tensor& indices) {
  Window w = resolve_3d(kernel_size, stride, padding, dilation);
  auto sizes = max_pool3d_sizes(self, w, ceil_mode);
  at::native::resize_output(out, sizes);
  at::native::resize_output(indices, sizes);
  forward(3, self, w, out, indices);
  return {out, indices};
}

std::tuple<at::Tensor, at::Tensor> max_pool3d_with_indices(
    const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
    at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode) {
  Window w = resolve_3d(kernel_size, stride, padding, dilation);
  auto sizes = max_pool3d_sizes(self, w, ceil_mode);
  auto options = self.options().memory_format(layout_3d(self));
  at::Tensor values = at::empty(sizes, options),
             indices = at::empty(sizes, options.dtype(at::kLong));
  forward(3, self, w, values, indices);
  return {values, indices};
}

at::Tensor& max_pool3d_with_indices_backward_out(
    const at::Tensor& grad_output, const at::Tensor& self, at::IntArrayRef kernel_size,
    at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode,
    const at::Tensor& indices, at::Tensor& grad_input) {
  Window w = resolve_3d(kernel_size, stride, padding, dilation);
  TORCH_CHECK(self.dim() == 4 || self.dim() == 5,
              "non-empty 4D or 5D (batch mode) tensor expected for input");
  check_3d([](auto&&... args) { at::native::max_pool3d_backward_shape_check(args...); }, self, w,
           {grad_output.size(-3), grad_output.size(-2), grad_output.size(-1)}, grad_output,
           indices);
  at::native::resize_output(grad_input, self.sizes());
  pool::scatter_backward(grad_output, indices, grad_input, 3);
  return grad_input;
}

at::Tensor max_pool3d_with_indices_backward(const at::Tensor& grad_output, const at::Tensor& self,
                                            at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                            at::IntArrayRef padding, at::IntArrayRef dilation,
                                            bool ceil_mode, const at::Tensor& indices) {
  at::Tensor grad_input = at::empty(self.sizes(), self.options().memory_format(layout_3d(self)));
  return max_pool3d_with_indices_backward_out(grad_output, self, kernel_size, stride, padding,
                                              dilation, ceil_mode, indices, grad_input);
}

// adaptive_max_pool{2,3}d (Meta: ATen's structured meta of that op) and
// their backwards (Meta: the backward's).
template <class Meta, int64_t spatial>
std::tuple<at::Tensor, at::Tensor> adaptive(const at::Tensor& self, at::IntArrayRef output_size) {
  Functional<Meta> meta;
  meta.meta(self, output_size);
  pool::launch("max_pool.adaptive", true, spatial, self, meta.outputs_[0], {}, meta.outputs_[1]);
  return {meta.outputs_[0], meta.outputs_[1]};
}

template <class Meta, int64_t spatial>
std::tuple<at::Tensor&, at::Tensor&> adaptive_out(const at::Tensor& self,
                                                  at::IntArrayRef output_size, at::Tensor& out,
                                                  at::Tensor& indices) {
  Out<Meta> meta(out, indices);
  meta.meta(self, output_size);
  pool::launch("max_pool.adaptive", true, spatial, self, out, {}, indices);
  return {out, indices};
}

template <class Meta, int64_t spatial>
at::Tensor adaptive_backward(const at::Tensor& grad_output, const at::Tensor& self,
                             const at::Tensor& indices) {
  Functional<Meta> meta;
  meta.meta(grad_output, self, indices);
  pool::scatter_backward(grad_output, indices, meta.outputs_[0], spatial);
  return meta.outputs_[0];
}

template <class Meta, int64_t spatial>
at::Tensor& adaptive_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                  const at::Tensor& indices, at::Tensor& grad_input) {
  Out<Meta> meta(grad_input);
  meta.meta(grad_output, self, indices);
  pool::scatter_backward(grad_output, indices, grad_input, spatial);
  return grad_input;
}

using AdaptiveMeta2d = m::structured_adaptive_max_pool2d;
using AdaptiveMeta3d = m::structured_adaptive_max_pool3d;
using AdaptiveBackwardMeta2d = m::structured_adaptive_max_pool2d_backward;
using AdaptiveBackwardMeta3d = m::structured_adaptive_max_pool3d_backward;

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("adaptive_max_pool2d", &adaptive<AdaptiveMeta2d, 2>);
  m.impl("adaptive_max_pool2d.out", &adaptive_out<AdaptiveMeta2d, 2>);
  m.impl("adaptive_max_pool2d_backward", &adaptive_backward<AdaptiveBackwardMeta2d, 2>);
  m.impl("adaptive_max_pool2d_backward.grad_input",
         &adaptive_backward_out<AdaptiveBackwardMeta2d, 2>);
  m.impl("adaptive_max_pool3d", &adaptive<AdaptiveMeta3d, 3>);
  m.impl("adaptive_max_pool3d.out", &adaptive_out<AdaptiveMeta3d, 3>);
  m.impl("adaptive_max_pool3d_backward", &adaptive_backward<AdaptiveBackwardMeta3d, 3>);
  m.impl("adaptive_max_pool3d_backward.grad_input",
         &adaptive_backward_out<AdaptiveBackwardMeta3d, 3>);
  m.impl("max_pool2d_with_indices", max_pool2d_with_indices);
  m.impl("max_pool2d_with_indices.out", max_pool2d_with_indices_out);
  m.impl("max_pool2d_with_indices_backward", max_pool2d_with_indices_backward);
  m.impl("max_pool2d_with_indices_backward.grad_input", max_pool2d_with_indices_backward_out);
  m.impl("max_pool3d_with_indices", max_pool3d_with_indices);
  m.impl("max_pool3d_with_indices.out", max_pool3d_with_indices_out);
  m.impl("max_pool3d_with_indices_backward", max_pool3d_with_indices_backward);
  m.impl("max_pool3d_with_indices_backward.grad_input", max_pool3d_with_indices_backward_out);
}

}  // namespace torchvulkan
