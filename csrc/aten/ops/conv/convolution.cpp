// Convolutions (convolution_overrideable and its backward, the ops PyTorch
// hands a backend), plain and transposed, as matrix products over im2col
// columns, on the GEMM tiers:
//   columns[n, g, (c, k), l] = padded_input[n, g * C/G + c, l * stride + k * dilation]
//   out[n, g, o, l]          = sum over (c, k) of weight[g, o, (c, k)] * columns[n, g, (c, k), l]
// The columns are one strided view of the zero-padded input, copied once by
// the native copy kernel. The weight gradient folds the batch into the
// product's K; the input gradient multiplies back to columns and adds them
// into the padded input, one strided add per kernel offset (col2im). Every
// step is a native op. A transposed convolution is the input gradient of the
// plain convolution from its output back to its input, and its gradients are
// that convolution and its weight gradient.
#include <ATen/ops/bmm.h>
#include <ATen/ops/constant_pad_nd.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

#include <algorithm>
#include <vector>

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

// The input, zero-padded (a copy only where there is padding).
at::Tensor pad(const at::Tensor& input, const Geometry& g) {
  if (std::all_of(g.padding.begin(), g.padding.end(), [](int64_t p) { return p == 0; }))
    return input;
  std::vector<int64_t> pads;  // last dimension first, as constant_pad_nd takes them
  for (int64_t d = g.dims() - 1; d >= 0; --d) pads.insert(pads.end(), {g.padding[d], g.padding[d]});
  return at::constant_pad_nd(input, pads);
}

// The columns with every dimension apart: [N, G, C / G, kernel..., out...].
std::vector<int64_t> column_sizes(const Geometry& g) {
  std::vector<int64_t> sizes = window_sizes(g);
  sizes.insert(sizes.begin() + 3, g.kernel.begin(), g.kernel.end());
  return sizes;
}

// columns [N, G, C / G * taps, positions] of the zero-padded input: its
// windows, with the kernel offsets (dilation apart) inserted before the
// output positions.
at::Tensor columns(const at::Tensor& input, const Geometry& g) {
  at::Tensor padded = pad(input, g);
  std::vector<int64_t> strides = window_strides(padded, g);
  for (int64_t d = 0; d < g.dims(); ++d)
    strides.insert(strides.begin() + 3 + d, g.dilation[d] * padded.stride(d + 2));
  return padded.as_strided(column_sizes(g), strides)
      .reshape({g.batch, g.groups, g.group_channels() * g.taps(), g.positions()});
}

// weight as [1, G, O / G, C / G * taps], broadcast over the batch.
at::Tensor weight_matrix(const at::Tensor& weight, const Geometry& g) {
  return weight.reshape({1, g.groups, g.group_outputs(), g.group_channels() * g.taps()});
}

std::vector<int64_t> batch_channels_then(int64_t batch, int64_t channels,
                                         const std::vector<int64_t>& spatial) {
  std::vector<int64_t> sizes = {batch, channels};
  sizes.insert(sizes.end(), spatial.begin(), spatial.end());
  return sizes;
}

// The convolution of `input` ([N, C, in...]) without bias: [N, O, out...].
at::Tensor product(const at::Tensor& input, const at::Tensor& weight, const Geometry& g) {
  return at::matmul(weight_matrix(weight, g), columns(input, g))
      .view(batch_channels_then(g.batch, g.outputs, g.out));
}

// The gradient of product() for its input, from `grad` ([N, O, out...]):
// the columns' gradient added back into the padded input where each column
// came from, one strided add per kernel offset (col2im).
at::Tensor input_gradient(const at::Tensor& grad, const at::Tensor& weight, const Geometry& g) {
  at::Tensor grad_columns =
      at::matmul(weight_matrix(weight, g).transpose(-1, -2),
                 grad.reshape({g.batch, g.groups, g.group_outputs(), g.positions()}));
  grad_columns = grad_columns.view(column_sizes(g));
  std::vector<int64_t> padded_sizes = {g.batch, g.channels};
  for (int64_t d = 0; d < g.dims(); ++d) padded_sizes.push_back(g.in[d] + 2 * g.padding[d]);
  at::Tensor padded = at::zeros(padded_sizes, grad.options());
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
  at::Tensor grad_input = padded;
  for (int64_t d = 0; d < g.dims(); ++d)
    grad_input = grad_input.narrow(d + 2, g.padding[d], g.in[d]);
  return grad_input.contiguous();
}

// The gradient of product() for the weight: the sum over n and l of
// grad[n, g, o, l] * columns[n, g, (c, k), l], the batch joining the
// product's K.
at::Tensor weight_gradient(const at::Tensor& grad, const at::Tensor& input,
                           const at::Tensor& weight, const Geometry& g) {
  int64_t k = g.batch * g.positions();
  at::Tensor a = grad.reshape({g.batch, g.groups, g.group_outputs(), g.positions()})
                     .permute({1, 2, 0, 3})
                     .reshape({g.groups, g.group_outputs(), k});
  at::Tensor b = columns(input, g).permute({1, 0, 3, 2}).reshape({g.groups, k, -1});
  return at::bmm(a, b).view(weight.sizes());
}

// A transposed convolution of x ([N, C_in, in...], weight [C_in, C_out / G,
// kernel...]) is the input gradient of the convolution that maps its output
// ([N, C_out, out...]) back to x's shape, with the same weight: that
// convolution's geometry, sizes taken from x.
Geometry transposed_geometry(const at::Tensor& x, const at::Tensor& weight, at::IntArrayRef stride,
                             at::IntArrayRef padding, at::IntArrayRef dilation,
                             at::IntArrayRef output_padding, int64_t groups) {
  Geometry g{x.size(0), weight.size(1) * groups, weight.size(0), groups};
  for (int64_t d = 0; d < x.dim() - 2; ++d) {
    g.kernel.push_back(weight.size(d + 2));
    g.stride.push_back(stride[d]);
    g.padding.push_back(padding[d]);
    g.dilation.push_back(dilation[d]);
    g.out.push_back(x.size(d + 2));
    g.in.push_back((g.out[d] - 1) * g.stride[d] - 2 * g.padding[d] +
                   g.dilation[d] * (g.kernel[d] - 1) + output_padding[d] + 1);
  }
  return g;
}

at::Tensor convolution(const at::Tensor& input, const at::Tensor& weight,
                       const std::optional<at::Tensor>& bias, at::IntArrayRef stride,
                       at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed,
                       at::IntArrayRef output_padding, int64_t groups) {
  at::Tensor out =
      transposed
          ? input_gradient(input, weight,
                           transposed_geometry(input, weight, stride, padding, dilation,
                                               output_padding, groups))
          : product(input, weight, geometry(input, weight, stride, padding, dilation, groups));
  if (bias && bias->defined()) {
    std::vector<int64_t> shape(out.dim(), 1);
    shape[1] = out.size(1);
    out.add_(bias->view(shape));
  }
  return out;
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> convolution_backward(
    const at::Tensor& grad_output, const at::Tensor& input, const at::Tensor& weight,
    at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed,
    at::IntArrayRef output_padding, int64_t groups, std::array<bool, 3> output_mask) {
  at::Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[2]) {
    std::vector<int64_t> reduce = {0};
    for (int64_t d = 2; d < grad_output.dim(); ++d) reduce.push_back(d);
    grad_bias = grad_output.sum(reduce);
  }
  if (transposed) {
    // The convolution of grad_output that the forward was the input
    // gradient of.
    Geometry g =
        transposed_geometry(input, weight, stride, padding, dilation, output_padding, groups);
    if (output_mask[0]) grad_input = product(grad_output, weight, g);
    if (output_mask[1]) grad_weight = weight_gradient(input, grad_output, weight, g);
  } else {
    Geometry g = geometry(input, weight, stride, padding, dilation, groups);
    if (output_mask[0]) grad_input = input_gradient(grad_output, weight, g);
    if (output_mask[1]) grad_weight = weight_gradient(grad_output, input, weight, g);
  }
  return {grad_input, grad_weight, grad_bias};
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("convolution_overrideable", convolution);
  m.impl("convolution_backward_overrideable", convolution_backward);
}

}  // namespace torchvulkan
