// avg_pool2d, _adaptive_avg_pool2d and their backwards, one invocation per
// element written (shaders/pool/avg_pool2d.comp, adaptive_avg_pool2d.comp;
// the backwards gather from the windows that hold each input element, so
// they need no atomics). ATen's meta functions check avg_pool2d's arguments
// and size its outputs; the adaptive ones are checked here as the CPU does.
// avg_pool1d, adaptive_avg_pool1d and adaptive_avg_pool2d reach these
// through PyTorch's composites.
#include <ATen/ops/avg_pool2d_backward_meta.h>
#include <ATen/ops/avg_pool2d_meta.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <torch/library.h>

#include "aten/ops/pool/planes.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

// (input side, output side): forward reads the input and writes the output,
// backward reads grad_output and writes grad_input.
void launch(const char* kernel, const char* op, const at::Tensor& input_side,
            const at::Tensor& output_side, std::initializer_list<int64_t> extra) {
  bool forward = std::string_view(op) == "forward";
  pool::launch_planes(std::string(kernel) + "." + op,
                      {{input_side, !forward}, {output_side, forward}}, forward ? 1 : 0, extra);
}

// The CPU's dtypes and message: floating types, and int64 for avg_pool2d's
// forward.
void check_dtype(const char* name, const at::Tensor& t, bool long_too) {
  c10::ScalarType type = t.scalar_type();
  TORCH_CHECK_NOT_IMPLEMENTED(at::isFloatingType(type) || (long_too && type == c10::kLong), "\"",
                              name, "\" not implemented for '", c10::toString(type), "'");
}

void avg_pool(const char* op, const at::Tensor& input_side, const at::Tensor& output_side,
              at::IntArrayRef kernel_size, at::IntArrayRef stride, at::IntArrayRef padding,
              bool count_include_pad, std::optional<int64_t> divisor_override) {
  bool forward = std::string_view(op) == "forward";
  check_dtype(forward ? "avg_pool2d" : "avg_pool2d_backward_out_frame", input_side, forward);
  // The backward's meta does not resolve the window: ATen's rules.
  auto kernel = pool::pair(kernel_size, {0, 0});
  auto steps = pool::pair(stride, kernel);
  auto pad = pool::pair(padding, {0, 0});
  launch("avg_pool2d", op, input_side, output_side,
         {kernel[0], kernel[1], steps[0], steps[1], pad[0], pad[1], int64_t(count_include_pad),
          divisor_override.value_or(0)});
}

at::Tensor avg_pool2d(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                      at::IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                      std::optional<int64_t> divisor_override) {
  Functional<m::structured_avg_pool2d> meta;
  meta.meta(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
  avg_pool("forward", self, meta.outputs_[0], kernel_size, stride, padding, count_include_pad,
           divisor_override);
  return meta.outputs_[0];
}

at::Tensor& avg_pool2d_out(const at::Tensor& self, at::IntArrayRef kernel_size,
                           at::IntArrayRef stride, at::IntArrayRef padding, bool ceil_mode,
                           bool count_include_pad, std::optional<int64_t> divisor_override,
                           at::Tensor& out) {
  Out<m::structured_avg_pool2d> meta(out);
  meta.meta(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
  avg_pool("forward", self, out, kernel_size, stride, padding, count_include_pad, divisor_override);
  return out;
}

at::Tensor avg_pool2d_backward(const at::Tensor& grad_output, const at::Tensor& self,
                               at::IntArrayRef kernel_size, at::IntArrayRef stride,
                               at::IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                               std::optional<int64_t> divisor_override) {
  Functional<m::structured_avg_pool2d_backward> meta;
  meta.meta(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
            divisor_override);
  avg_pool("backward", meta.outputs_[0], grad_output, kernel_size, stride, padding,
           count_include_pad, divisor_override);
  return meta.outputs_[0];
}

at::Tensor& avg_pool2d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                    at::IntArrayRef kernel_size, at::IntArrayRef stride,
                                    at::IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                                    std::optional<int64_t> divisor_override,
                                    at::Tensor& grad_input) {
  Out<m::structured_avg_pool2d_backward> meta(grad_input);
  meta.meta(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
            divisor_override);
  avg_pool("backward", grad_input, grad_output, kernel_size, stride, padding, count_include_pad,
           divisor_override);
  return grad_input;
}

// The output sizes of _adaptive_avg_pool2d, after the CPU's checks.
std::vector<int64_t> adaptive_output_sizes(const at::Tensor& self, at::IntArrayRef output_size) {
  TORCH_CHECK(output_size.size() == 2, "adaptive_avg_pool2d: output_size must be 2");
  TORCH_CHECK(output_size[0] >= 0 && output_size[1] >= 0,
              "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
              "received {",
              output_size[0], ", ", output_size[1], "}");
  TORCH_CHECK(self.dim() == 3 || self.dim() == 4,
              "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got ", self.sizes());
  for (int64_t i = 1; i < self.dim(); ++i) {
    TORCH_CHECK(self.size(i) > 0,
                "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
                "dimensions, but input has sizes ",
                self.sizes(), " with dimension ", i, " being empty");
  }
  check_dtype("adaptive_avg_pool2d", self, false);
  std::vector<int64_t> sizes(self.sizes().begin(), self.sizes().end() - 2);
  sizes.insert(sizes.end(), {output_size[0], output_size[1]});
  return sizes;
}

at::Tensor adaptive_avg_pool2d(const at::Tensor& self, at::IntArrayRef output_size) {
  at::Tensor out = at::empty(adaptive_output_sizes(self, output_size),
                             self.options().memory_format(self.suggest_memory_format()));
  launch("adaptive_avg_pool2d", "forward", self, out, {});
  return out;
}

at::Tensor adaptive_avg_pool2d_backward(const at::Tensor& grad_output, const at::Tensor& self) {
  TORCH_CHECK(grad_output.dim() == self.dim(),
              "adaptive_avg_pool2d_backward(): Expected dimensions ", self.dim(),
              " for `grad_output` but got dimensions ", grad_output.dim());
  check_dtype("adaptive_avg_pool2d_backward", self, false);
  at::Tensor grad_input = at::empty_like(self, self.suggest_memory_format());
  launch("adaptive_avg_pool2d", "backward", grad_input, grad_output, {});
  return grad_input;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("avg_pool2d", avg_pool2d);
  m.impl("avg_pool2d.out", avg_pool2d_out);
  m.impl("avg_pool2d_backward", avg_pool2d_backward);
  m.impl("avg_pool2d_backward.grad_input", avg_pool2d_backward_out);
  m.impl("_adaptive_avg_pool2d", adaptive_avg_pool2d);
  m.impl("_adaptive_avg_pool2d_backward", adaptive_avg_pool2d_backward);
}

}  // namespace torchvulkan
