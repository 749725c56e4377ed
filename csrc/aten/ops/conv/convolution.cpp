// Convolutions (convolution_overrideable and its backward, the ops PyTorch
// hands a backend) as matrix products over im2col columns, on the GEMM tiers:
//   columns[n, g, (c, k), l] = padded_input[n, g * C/G + c, l * stride + k * dilation]
//   out[n, g, o, l]          = sum over (c, k) of weight[g, o, (c, k)] * columns[n, g, (c, k), l]
// The columns are one strided view of the zero-padded input, copied once by
// the native copy kernel. The weight gradient folds the batch into the
// product's K; the input gradient multiplies back to columns and adds them
// into the padded input, one strided add per kernel offset (col2im). Every
// step is a native op. Transposed convolutions still run on the CPU
// (aten/fallback.h).
#include <ATen/ops/bmm.h>
#include <ATen/ops/constant_pad_nd.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

#include <vector>

#include "aten/fallback.h"

namespace torchvulkan {
namespace {

// Sizes of a convolution over `dims` spatial dimensions, batched input
// [N, C, in...], weight [O, C / G, kernel...].
struct Geometry {
  int64_t batch, channels, outputs, groups;
  std::vector<int64_t> in, kernel, out, stride, padding, dilation;

  int64_t dims() const { return static_cast<int64_t>(in.size()); }
  int64_t taps() const { return c10::multiply_integers(kernel); }
  int64_t positions() const { return c10::multiply_integers(out); }
  int64_t group_channels() const { return channels / groups; }
  int64_t group_outputs() const { return outputs / groups; }
};

Geometry geometry(const at::Tensor& input, const at::Tensor& weight, at::IntArrayRef stride,
                  at::IntArrayRef padding, at::IntArrayRef dilation, int64_t groups) {
  Geometry g{input.size(0), input.size(1), weight.size(0), groups};
  for (int64_t d = 0; d < input.dim() - 2; ++d) {
    g.in.push_back(input.size(d + 2));
    g.kernel.push_back(weight.size(d + 2));
    // ATen expands one value to every dimension before calling the backend.
    g.stride.push_back(stride[d]);
    g.padding.push_back(padding[d]);
    g.dilation.push_back(dilation[d]);
    g.out.push_back(
        (g.in[d] + 2 * g.padding[d] - g.dilation[d] * (g.kernel[d] - 1) - 1) / g.stride[d] + 1);
  }
  return g;
}

// The padded input's window for kernel offset `first` (in elements of the
// padded tensor) at every output position: [N, G, C / G, out...].
std::vector<int64_t> window_sizes(const Geometry& g) {
  std::vector<int64_t> sizes = {g.batch, g.groups, g.group_channels()};
  sizes.insert(sizes.end(), g.out.begin(), g.out.end());
  return sizes;
}

std::vector<int64_t> window_strides(const at::Tensor& padded, const Geometry& g) {
  std::vector<int64_t> strides = {padded.stride(0), g.group_channels() * padded.stride(1),
                                  padded.stride(1)};
  for (int64_t d = 0; d < g.dims(); ++d) strides.push_back(g.stride[d] * padded.stride(d + 2));
  return strides;
}

at::Tensor pad(const at::Tensor& input, const Geometry& g) {
  std::vector<int64_t> pads;  // last dimension first, as constant_pad_nd takes them
  for (int64_t d = g.dims() - 1; d >= 0; --d) pads.insert(pads.end(), {g.padding[d], g.padding[d]});
  return at::constant_pad_nd(input, pads);
}

// columns [N, G, C / G * taps, positions] of the zero-padded input.
at::Tensor columns(const at::Tensor& input, const Geometry& g) {
  at::Tensor padded = pad(input, g);
  std::vector<int64_t> sizes = {g.batch, g.groups, g.group_channels()};
  std::vector<int64_t> strides = {padded.stride(0), g.group_channels() * padded.stride(1),
                                  padded.stride(1)};
  for (int64_t d = 0; d < g.dims(); ++d) {
    sizes.push_back(g.kernel[d]);
    strides.push_back(g.dilation[d] * padded.stride(d + 2));
  }
  std::vector<int64_t> window = window_strides(padded, g);
  sizes.insert(sizes.end(), g.out.begin(), g.out.end());
  strides.insert(strides.end(), window.begin() + 3, window.end());
  return padded.as_strided(sizes, strides)
      .reshape({g.batch, g.groups, g.group_channels() * g.taps(), g.positions()});
}

// weight as [1, G, O / G, C / G * taps], broadcast over the batch.
at::Tensor weight_matrix(const at::Tensor& weight, const Geometry& g) {
  return weight.reshape({1, g.groups, g.group_outputs(), g.group_channels() * g.taps()});
}

at::Tensor convolution(const at::Tensor& input, const at::Tensor& weight,
                       const std::optional<at::Tensor>& bias, at::IntArrayRef stride,
                       at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed,
                       at::IntArrayRef output_padding, int64_t groups) {
  if (transposed) {
    return convolution_on_cpu(input, weight, bias, stride, padding, dilation, transposed,
                              output_padding, groups);
  }
  Geometry g = geometry(input, weight, stride, padding, dilation, groups);
  std::vector<int64_t> out_sizes = {g.batch, g.outputs};
  out_sizes.insert(out_sizes.end(), g.out.begin(), g.out.end());
  at::Tensor out = at::matmul(weight_matrix(weight, g), columns(input, g)).view(out_sizes);
  if (bias && bias->defined()) {
    std::vector<int64_t> shape(out_sizes.size(), 1);
    shape[1] = g.outputs;
    out.add_(bias->view(shape));
  }
  return out;
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> convolution_backward(
    const at::Tensor& grad_output, const at::Tensor& input, const at::Tensor& weight,
    at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed,
    at::IntArrayRef output_padding, int64_t groups, std::array<bool, 3> output_mask) {
  if (transposed) {
    return convolution_backward_on_cpu(grad_output, input, weight, stride, padding, dilation,
                                       transposed, output_padding, groups, output_mask);
  }
  Geometry g = geometry(input, weight, stride, padding, dilation, groups);
  at::Tensor grad = grad_output.reshape({g.batch, g.groups, g.group_outputs(), g.positions()});
  at::Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[2]) {
    std::vector<int64_t> reduce = {0};
    for (int64_t d = 0; d < g.dims(); ++d) reduce.push_back(d + 2);
    grad_bias = grad_output.sum(reduce);
  }
  if (output_mask[1]) {
    // sum over n and l of grad[n, g, o, l] * columns[n, g, (c, k), l]: the
    // batch joins the product's K.
    int64_t k = g.batch * g.positions();
    at::Tensor a = grad.permute({1, 2, 0, 3}).reshape({g.groups, g.group_outputs(), k});
    at::Tensor b = columns(input, g).permute({1, 0, 3, 2}).reshape({g.groups, k, -1});
    grad_weight = at::bmm(a, b).view(weight.sizes());
  }
  if (output_mask[0]) {
    // The columns' gradient, [N, G, C / G, taps..., out...], added back into
    // the padded input where each column came from.
    at::Tensor grad_columns = at::matmul(weight_matrix(weight, g).transpose(-1, -2), grad);
    std::vector<int64_t> split = {g.batch, g.groups, g.group_channels()};
    split.insert(split.end(), g.kernel.begin(), g.kernel.end());
    split.insert(split.end(), g.out.begin(), g.out.end());
    grad_columns = grad_columns.view(split);
    std::vector<int64_t> padded_sizes = {g.batch, g.channels};
    for (int64_t d = 0; d < g.dims(); ++d) padded_sizes.push_back(g.in[d] + 2 * g.padding[d]);
    at::Tensor padded = at::zeros(padded_sizes, input.options());
    std::vector<int64_t> sizes = window_sizes(g), strides = window_strides(padded, g);
    std::vector<int64_t> tap(g.dims(), 0);
    for (int64_t t = 0; t < g.taps(); ++t) {
      int64_t first = 0;
      at::Tensor source = grad_columns;
      for (int64_t d = 0; d < g.dims(); ++d) {
        first += tap[d] * g.dilation[d] * padded.stride(d + 2);
        source = source.select(3, tap[d]);
      }
      padded.as_strided(sizes, strides, first).add_(source);
      for (int64_t d = g.dims() - 1; d >= 0 && ++tap[d] == g.kernel[d]; --d) tap[d] = 0;
    }
    grad_input = padded;
    for (int64_t d = 0; d < g.dims(); ++d)
      grad_input = grad_input.narrow(d + 2, g.padding[d], g.in[d]);
    grad_input = grad_input.contiguous();
  }
  return {grad_input, grad_weight, grad_bias};
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("convolution_overrideable", convolution);
  m.impl("convolution_backward_overrideable", convolution_backward);
}

}  // namespace torchvulkan
