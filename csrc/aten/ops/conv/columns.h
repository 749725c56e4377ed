#pragma once
// The column form of a convolution (im2col) and its inverse (col2im), over
// one to three spatial dimensions: the convolutions multiply weights by
// columns, and im2col / col2im (F.unfold / F.fold) are these alone.
//   columns[n, g, (c, k), l] = padded_input[n, g * C/G + c, l * stride + k * dilation]
// shaders/conv/im2col.comp writes the columns, zeros for the padding, and
// col2im.comp gathers them back, each image element summing the columns'
// values taken from it in one pass.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace torchvulkan::conv {

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

// The output positions along each dimension, from in, kernel, stride,
// padding and dilation.
void set_positions(Geometry& g);

// columns [N, G, C / G * taps, positions] of the zero-padded input.
at::Tensor columns(const at::Tensor& input, const Geometry& g);

// The same values with the batch inside each row, [G, C / G * taps, N *
// positions]: the weight gradient's operand, whose K is (n, position).
at::Tensor columns_across_batch(const at::Tensor& input, const Geometry& g);

// The input [N, C, in...] whose columns() gradient is `grad_columns`
// ([N, G, C / G * taps, positions]): each column added back where it came
// from (col2im), as `result`. Sums for 16-bit results are kept in float32
// and rounded once, as the CPU's float32 reference is.
at::Tensor add_columns(const at::Tensor& grad_columns, const Geometry& g, c10::ScalarType result);

}  // namespace torchvulkan::conv
