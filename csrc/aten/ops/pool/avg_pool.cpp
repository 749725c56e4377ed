// avg_pool2d and its backward, one invocation per element written
// (shaders/pool/avg_pool2d.comp; the backward gathers from the windows that
// hold each input element, so it needs no atomics). ATen's meta functions
// check the arguments and size the outputs; the forward's also resolves the
// kernel, stride and padding. avg_pool1d reaches these through PyTorch's
// composite.
#include <ATen/ops/avg_pool2d_backward_meta.h>
#include <ATen/ops/avg_pool2d_meta.h>
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

// Runs `op` ("forward": input -> output; "backward": grad_output ->
// grad_input) writing every element of `destination`.
void launch(const char* op, const at::Tensor& input_side, const at::Tensor& output_side,
            const Window& w, bool count_include_pad, std::optional<int64_t> divisor_override) {
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
  words.insert(words.end(), {w.kh, w.kw, w.sh, w.sw, w.ph, w.pw, int64_t(count_include_pad),
                             divisor_override.value_or(0)});
  // The CPU's dtypes and message.
  c10::ScalarType type = in.scalar_type();
  TORCH_CHECK_NOT_IMPLEMENTED(at::isFloatingType(type) || (forward && type == c10::kLong),
                              "\"avg_pool2d", forward ? "" : "_backward_out_frame",
                              "\" not implemented for '", c10::toString(type), "'");
  rt::Device& dev = device_for(in);
  const rt::Kernel& k =
      dev.pipelines().get(std::string("avg_pool2d.") + op + "." + dtype_name(in.scalar_type()));
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

at::Tensor avg_pool2d(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                      at::IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                      std::optional<int64_t> divisor_override) {
  Functional<m::structured_avg_pool2d> meta;
  meta.meta(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
  launch("forward", self, meta.outputs_[0], window(kernel_size, stride, padding), count_include_pad,
         divisor_override);
  return meta.outputs_[0];
}

at::Tensor& avg_pool2d_out(const at::Tensor& self, at::IntArrayRef kernel_size,
                           at::IntArrayRef stride, at::IntArrayRef padding, bool ceil_mode,
                           bool count_include_pad, std::optional<int64_t> divisor_override,
                           at::Tensor& out) {
  Out<m::structured_avg_pool2d> meta(out);
  meta.meta(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
  launch("forward", self, out, window(kernel_size, stride, padding), count_include_pad,
         divisor_override);
  return out;
}

at::Tensor avg_pool2d_backward(const at::Tensor& grad_output, const at::Tensor& self,
                               at::IntArrayRef kernel_size, at::IntArrayRef stride,
                               at::IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                               std::optional<int64_t> divisor_override) {
  Functional<m::structured_avg_pool2d_backward> meta;
  meta.meta(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
            divisor_override);
  launch("backward", meta.outputs_[0], grad_output, window(kernel_size, stride, padding),
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
  launch("backward", grad_input, grad_output, window(kernel_size, stride, padding),
         count_include_pad, divisor_override);
  return grad_input;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("avg_pool2d", avg_pool2d);
  m.impl("avg_pool2d.out", avg_pool2d_out);
  m.impl("avg_pool2d_backward", avg_pool2d_backward);
  m.impl("avg_pool2d_backward.grad_input", avg_pool2d_backward_out);
}

}  // namespace torchvulkan
