// Convolutions (convolution_overrideable and its backward, the ops PyTorch
// hands a backend), plain and transposed, as matrix products over im2col
// columns (conv/columns.h), on the GEMM tiers:
//   out[n, g, o, l] = sum over (c, k) of weight[g, o, (c, k)] * columns[n, g, (c, k), l]
// The weight gradient folds the batch into the product's K; the input
// gradient multiplies back to columns and adds them into the input (col2im).
// A transposed convolution is the input gradient of the
// plain convolution from its output back to its input, and its gradients are
// that convolution and its weight gradient.
#include <ATen/OpMathType.h>
#include <ATen/ops/bmm.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/matmul.h>
#include <torch/library.h>

#include <vector>

#include "aten/ops/conv/columns.h"
#include "aten/ops/matmul/gemm.h"

namespace torchvulkan {
namespace {

using conv::Geometry;

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
  }
  conv::set_positions(g);
  return g;
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
  return at::matmul(weight_matrix(weight, g), conv::columns(input, g))
      .view(batch_channels_then(g.batch, g.outputs, g.out));
}

// The gradient of product() for its input, from `grad` ([N, O, out...]):
// the columns' gradient, added back into the input (col2im), as `result`.
// 16-bit products are written unrounded (float32 columns, from one batched
// product over N * G, the weight repeated as at::matmul's broadcast does)
// and rounded once after col2im's sums, as CUDA accumulates in float32; the
// CPU rounds the columns and each partial sum in 16 bits.
at::Tensor input_gradient(const at::Tensor& grad, const at::Tensor& weight, const Geometry& g,
                          c10::ScalarType result) {
  at::Tensor w = weight_matrix(weight, g).transpose(-1, -2);
  at::Tensor gr = grad.reshape({g.batch, g.groups, g.group_outputs(), g.positions()});
  if (at::toOpMathType(grad.scalar_type()) == grad.scalar_type())
    return conv::add_columns(at::matmul(w, gr), g, result);
  int64_t rows = w.size(-2), batches = g.batch * g.groups;
  at::Tensor columns =
      at::empty({g.batch, g.groups, rows, g.positions()}, grad.options().dtype(at::kFloat));
  gemm(w.expand({g.batch, g.groups, rows, g.group_outputs()}).reshape({batches, rows, -1}),
       gr.reshape({batches, g.group_outputs(), g.positions()}),
       columns.view({batches, rows, g.positions()}), at::Tensor(), 1, 0);
  return conv::add_columns(columns, g, result);
}

// The gradient of product() for the weight: the sum over n and l of
// grad[n, g, o, l] * columns[n, g, (c, k), l], the batch joining the
// product's K: the columns are written with the batch inside each row, so
// that their transpose is the product's operand without a copy (grad, the
// smaller, is permuted by one).
at::Tensor weight_gradient(const at::Tensor& grad, const at::Tensor& input,
                           const at::Tensor& weight, const Geometry& g) {
  int64_t k = g.batch * g.positions();
  at::Tensor a = grad.reshape({g.batch, g.groups, g.group_outputs(), g.positions()})
                     .permute({1, 2, 0, 3})
                     .reshape({g.groups, g.group_outputs(), k});
  return at::bmm(a, conv::columns_across_batch(input, g).transpose(1, 2)).view(weight.sizes());
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
  // A 16-bit transposed convolution adds its bias before the one rounding.
  c10::ScalarType type = input.scalar_type();
  at::Tensor out =
      transposed
          ? input_gradient(input, weight,
                           transposed_geometry(input, weight, stride, padding, dilation,
                                               output_padding, groups),
                           at::toOpMathType(type))
          : product(input, weight, geometry(input, weight, stride, padding, dilation, groups));
  if (bias && bias->defined()) {
    std::vector<int64_t> shape(out.dim(), 1);
    shape[1] = out.size(1);
    out.add_(bias->view(shape));
  }
  return out.scalar_type() == type ? out : out.to(type);
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
    if (output_mask[0])
      grad_input = input_gradient(grad_output, weight, g, grad_output.scalar_type());
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
