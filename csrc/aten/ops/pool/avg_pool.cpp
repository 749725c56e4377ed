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

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

struct Window {
  int64_t kh, kw, sh, sw, ph, pw;
};

// A 3-D tensor [C, H, W] is one batch.
at::Tensor batched(const at::Tensor& t) {
  return t.dim() == 3 ? t.unsqueeze(0) : t;
}

// Runs `kernel`'s `op` ("forward": input -> output; "backward": grad_output
// -> grad_input), writing every element of the destination; `extra` follows
// the common parameter words (see the shaders).
void launch(const char* kernel, const char* op, const at::Tensor& input_side,
            const at::Tensor& output_side, std::initializer_list<int64_t> extra) {
  at::Tensor in = batched(input_side), out = batched(output_side);
  bool forward = std::string_view(op) == "forward";
  const at::Tensor &source = forward ? in : out, &destination = forward ? out : in;
  if (destination.numel() == 0) return;
  std::vector<int64_t> words = {reinterpret_cast<int64_t>(source.const_data_ptr()),
                                reinterpret_cast<int64_t>(destination.data_ptr()),
                                in.size(0) * in.size(1),
                                in.size(1),
                                in.size(2),
                                in.size(3),
                                out.size(2),
                                out.size(3)};
  for (const at::Tensor* t : {&in, &out})
    for (int64_t d = 0; d < 4; ++d) words.push_back(t->stride(d));
  words.insert(words.end(), extra);
  rt::Device& dev = device_for(in);
  const rt::Kernel& k =
      dev.pipelines().get(std::string(kernel) + "." + op + "." + dtype_name(in.scalar_type()));
  uint64_t push = 0;  // the stream writes the parameters' address here
  std::vector<rt::Access> accesses = {span_of(source, false), span_of(destination, true)};
  dev.stream().dispatch(k, &push, sizeof(push), words.data(),
                        static_cast<uint32_t>(words.size() * sizeof(int64_t)),
                        static_cast<uint64_t>(destination.numel()), accesses);
}

// The backward's meta does not resolve the window: ATen's rules (one value
// for both dims; the stride defaults to the kernel).
Window window(at::IntArrayRef kernel, at::IntArrayRef stride, at::IntArrayRef padding) {
  auto h_w = [](at::IntArrayRef v, int64_t h, int64_t w) -> std::array<int64_t, 2> {
    if (v.empty()) return {h, w};
    return {v[0], v.size() == 1 ? v[0] : v[1]};
  };
  auto [kh, kw] = h_w(kernel, 0, 0);
  auto [sh, sw] = h_w(stride, kh, kw);
  auto [ph, pw] = h_w(padding, 0, 0);
  return {kh, kw, sh, sw, ph, pw};
}

// The CPU's dtypes and message: floating types, and int64 for avg_pool2d's
// forward.
void check_dtype(const char* name, const at::Tensor& t, bool long_too) {
  c10::ScalarType type = t.scalar_type();
  TORCH_CHECK_NOT_IMPLEMENTED(at::isFloatingType(type) || (long_too && type == c10::kLong), "\"",
                              name, "\" not implemented for '", c10::toString(type), "'");
}

void avg_pool(const char* op, const at::Tensor& input_side, const at::Tensor& output_side,
              at::IntArrayRef kernel, at::IntArrayRef stride, at::IntArrayRef padding,
              bool count_include_pad, std::optional<int64_t> divisor_override) {
  bool forward = std::string_view(op) == "forward";
  check_dtype(forward ? "avg_pool2d" : "avg_pool2d_backward_out_frame", input_side, forward);
  Window w = window(kernel, stride, padding);
  launch("avg_pool2d", op, input_side, output_side,
         {w.kh, w.kw, w.sh, w.sw, w.ph, w.pw, int64_t(count_include_pad),
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
