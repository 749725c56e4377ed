// avg_pool{2,3}d, _adaptive_avg_pool{2,3}d and their backwards, one
// invocation per element written (shaders/pool/avg_pool.comp,
// adaptive_avg_pool.comp; the backwards gather from the windows that hold
// each input element, so they need no atomics). ATen's meta functions check
// avg_pool's arguments and size its outputs; the adaptive ones are checked
// here as the CPU does. avg_pool1d, adaptive_avg_pool1d and
// adaptive_avg_pool{2,3}d reach these through PyTorch's composites.
#include <ATen/native/Resize.h>
#include <ATen/ops/avg_pool2d_backward_meta.h>
#include <ATen/ops/avg_pool2d_meta.h>
#include <ATen/ops/avg_pool3d_backward_meta.h>
#include <ATen/ops/avg_pool3d_meta.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <torch/library.h>

#include "aten/ops/pool/window.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

// The CPU's dtypes and message: floating types, and int64 for avg_pool's
// forward.
void check_dtype(const std::string& name, const at::Tensor& t, bool long_too) {
  c10::ScalarType type = t.scalar_type();
  TORCH_CHECK_NOT_IMPLEMENTED(at::isFloatingType(type) || (long_too && type == c10::kLong), "\"",
                              name, "\" not implemented for '", c10::toString(type), "'");
}

// (input side, output side): forward reads the input and writes the output,
// backward reads grad_output and writes grad_input.
template <int64_t spatial>
void avg_pool(bool forward, const at::Tensor& input_side, const at::Tensor& output_side,
              at::IntArrayRef kernel_size, at::IntArrayRef stride, at::IntArrayRef padding,
              bool count_include_pad, std::optional<int64_t> divisor_override) {
  std::string name = "avg_pool" + std::to_string(spatial) + "d";
  check_dtype(forward ? name : name + "_backward_out_frame", input_side, forward);
  // The backward's meta does not resolve the window: ATen's rules.
  auto kernel = pool::per_dim(kernel_size, spatial, 1, {1, 1, 1});
  auto steps = pool::per_dim(stride, spatial, 1, kernel);
  auto pad = pool::per_dim(padding, spatial, 0, {0, 0, 0});
  std::vector<int64_t> words;
  for (const auto* part : {&kernel, &steps, &pad})
    words.insert(words.end(), part->begin(), part->end());
  words.insert(words.end(), {int64_t(count_include_pad), divisor_override.value_or(0)});
  pool::launch(forward ? "avg_pool.forward" : "avg_pool.backward", forward, spatial, input_side,
               output_side, words);
}

template <class Meta, int64_t spatial>
at::Tensor avg_pool_functional(const at::Tensor& self, at::IntArrayRef kernel_size,
                               at::IntArrayRef stride, at::IntArrayRef padding, bool ceil_mode,
                               bool count_include_pad, std::optional<int64_t> divisor_override) {
  Functional<Meta> meta;
  meta.meta(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
  avg_pool<spatial>(true, self, meta.outputs_[0], kernel_size, stride, padding, count_include_pad,
                    divisor_override);
  return meta.outputs_[0];
}

template <class Meta, int64_t spatial>
at::Tensor& avg_pool_out(const at::Tensor& self, at::IntArrayRef kernel_size,
                         at::IntArrayRef stride, at::IntArrayRef padding, bool ceil_mode,
                         bool count_include_pad, std::optional<int64_t> divisor_override,
                         at::Tensor& out) {
  Out<Meta> meta(out);
  meta.meta(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
  avg_pool<spatial>(true, self, out, kernel_size, stride, padding, count_include_pad,
                    divisor_override);
  return out;
}

template <class Meta, int64_t spatial>
at::Tensor avg_pool_backward(const at::Tensor& grad_output, const at::Tensor& self,
                             at::IntArrayRef kernel_size, at::IntArrayRef stride,
                             at::IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                             std::optional<int64_t> divisor_override) {
  Functional<Meta> meta;
  meta.meta(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
            divisor_override);
  avg_pool<spatial>(false, meta.outputs_[0], grad_output, kernel_size, stride, padding,
                    count_include_pad, divisor_override);
  return meta.outputs_[0];
}

template <class Meta, int64_t spatial>
at::Tensor& avg_pool_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                  at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                  at::IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                                  std::optional<int64_t> divisor_override, at::Tensor& grad_input) {
  Out<Meta> meta(grad_input);
  meta.meta(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
            divisor_override);
  avg_pool<spatial>(false, grad_input, grad_output, kernel_size, stride, padding, count_include_pad,
                    divisor_override);
  return grad_input;
}

// The output sizes of _adaptive_avg_pool{2,3}d, after the CPU's checks.
template <int64_t spatial>
std::vector<int64_t> adaptive_output_sizes(const at::Tensor& self, at::IntArrayRef output_size) {
  std::string name = "adaptive_avg_pool" + std::to_string(spatial) + "d";
  TORCH_CHECK(static_cast<int64_t>(output_size.size()) == spatial, name, ": output_size must be ",
              spatial);
  for (int64_t size : output_size)
    TORCH_CHECK(size >= 0, name, ": elements of output_size must be greater than or equal to 0 ",
                "but received ", output_size);
  TORCH_CHECK(self.dim() == spatial + 1 || self.dim() == spatial + 2, name, "(): Expected ",
              spatial + 1, "D or ", spatial + 2, "D tensor, but got ", self.sizes());
  for (int64_t i = 1; i < self.dim(); ++i) {
    TORCH_CHECK(self.size(i) > 0, name,
                "(): Expected input to have non-zero size for non-batch dimensions, but input "
                "has sizes ",
                self.sizes(), " with dimension ", i, " being empty");
  }
  check_dtype(name, self, false);
  std::vector<int64_t> sizes(self.sizes().begin(), self.sizes().end() - spatial);
  sizes.insert(sizes.end(), output_size.begin(), output_size.end());
  return sizes;
}

// The CPU's layouts: 2-D keeps a channels-last input's layout, 3-D writes
// contiguous outputs.
template <int64_t spatial>
at::TensorOptions adaptive_options(const at::Tensor& self) {
  return self.options().memory_format(spatial == 2 ? self.suggest_memory_format()
                                                   : c10::MemoryFormat::Contiguous);
}

template <int64_t spatial>
at::Tensor adaptive_avg_pool(const at::Tensor& self, at::IntArrayRef output_size) {
  at::Tensor out =
      at::empty(adaptive_output_sizes<spatial>(self, output_size), adaptive_options<spatial>(self));
  pool::launch("adaptive_avg_pool.forward", true, spatial, self, out, {});
  return out;
}

template <int64_t spatial>
at::Tensor& adaptive_avg_pool_out(const at::Tensor& self, at::IntArrayRef output_size,
                                  at::Tensor& out) {
  at::native::resize_output(out, adaptive_output_sizes<spatial>(self, output_size));
  pool::launch("adaptive_avg_pool.forward", true, spatial, self, out, {});
  return out;
}

template <int64_t spatial>
at::Tensor& adaptive_avg_pool_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                           at::Tensor& grad_input) {
  std::string name = "adaptive_avg_pool" + std::to_string(spatial) + "d_backward";
  TORCH_CHECK(grad_output.dim() == self.dim(), name, "(): Expected dimensions ", self.dim(),
              " for `grad_output` but got dimensions ", grad_output.dim());
  check_dtype(name, self, false);
  at::native::resize_output(grad_input, self.sizes());
  pool::launch("adaptive_avg_pool.backward", false, spatial, grad_input, grad_output, {});
  return grad_input;
}

template <int64_t spatial>
at::Tensor adaptive_avg_pool_backward(const at::Tensor& grad_output, const at::Tensor& self) {
  at::Tensor grad_input = at::empty_like(self, adaptive_options<spatial>(self));
  return adaptive_avg_pool_backward_out<spatial>(grad_output, self, grad_input);
}

using Meta2d = m::structured_avg_pool2d;
using Meta3d = m::structured_avg_pool3d;
using BackwardMeta2d = m::structured_avg_pool2d_backward;
using BackwardMeta3d = m::structured_avg_pool3d_backward;

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("avg_pool2d", &avg_pool_functional<Meta2d, 2>);
  m.impl("avg_pool2d.out", &avg_pool_out<Meta2d, 2>);
  m.impl("avg_pool2d_backward", &avg_pool_backward<BackwardMeta2d, 2>);
  m.impl("avg_pool2d_backward.grad_input", &avg_pool_backward_out<BackwardMeta2d, 2>);
  m.impl("avg_pool3d", &avg_pool_functional<Meta3d, 3>);
  m.impl("avg_pool3d.out", &avg_pool_out<Meta3d, 3>);
  m.impl("avg_pool3d_backward", &avg_pool_backward<BackwardMeta3d, 3>);
  m.impl("avg_pool3d_backward.grad_input", &avg_pool_backward_out<BackwardMeta3d, 3>);
  m.impl("_adaptive_avg_pool2d", &adaptive_avg_pool<2>);
  m.impl("_adaptive_avg_pool2d_backward", &adaptive_avg_pool_backward<2>);
  m.impl("_adaptive_avg_pool3d", &adaptive_avg_pool<3>);
  m.impl("_adaptive_avg_pool3d_backward", &adaptive_avg_pool_backward<3>);
  m.impl("adaptive_avg_pool2d.out", &adaptive_avg_pool_out<2>);
  m.impl("adaptive_avg_pool3d.out", &adaptive_avg_pool_out<3>);
  m.impl("adaptive_avg_pool3d_backward.grad_input", &adaptive_avg_pool_backward_out<3>);
}

}  // namespace torchvulkan
