#include "aten/ops/conv/columns.h"

#include <ATen/ops/empty.h>

#include <algorithm>
#include <limits>
#include <string>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/ops/volume.h"

namespace torchvulkan::conv {
namespace {

// im2col.comp's and col2im.comp's parameter words (shaders/conv/params.glsl):
// the image [N, C, in...], the columns at `columns`'s address with strides
// (n, row, position), the geometry padded to three spatial dimensions.
std::vector<int64_t> params(const at::Tensor& image, const at::Tensor& columns, const Geometry& g,
                            int64_t stride_n, int64_t stride_row, int64_t stride_position) {
  TORCH_CHECK(c10::multiply_integers(g.in) < std::numeric_limits<int32_t>::max() &&
                  g.positions() < std::numeric_limits<int32_t>::max(),
              "convolution: an image of ", c10::multiply_integers(g.in), " positions with ",
              g.positions(), " outputs is larger than the vulkan kernels index (2^31 - 1)");
  std::vector<int64_t> words = {int64_t(address_of(image)), int64_t(address_of(columns)), g.batch,
                                g.channels, g.taps()};
  auto three = [&](const std::vector<int64_t>& values, int64_t missing) {
    words.insert(words.end(), 3 - values.size(), missing);
    words.insert(words.end(), values.begin(), values.end());
  };
  three(g.in, 1);
  three(g.kernel, 1);
  three(g.out, 1);
  three(g.stride, 1);
  three(g.padding, 0);
  three(g.dilation, 1);
  at::Tensor five = five_d(image);
  words.insert(words.end(), five.strides().begin(), five.strides().end());
  words.insert(words.end(), {stride_n, stride_row, stride_position});
  return words;
}

// Writes the columns of `input` into `columns` (rows of positions contiguous)
// with these strides of n and of a row.
void write_columns(const at::Tensor& input, const Geometry& g, const at::Tensor& columns,
                   int64_t stride_n, int64_t stride_row) {
  int64_t width = input.element_size(), vec = std::max<int64_t>(4, 16 / width);
  bool vectors = g.positions() % vec == 0 && stride_n % vec == 0 && stride_row % vec == 0 &&
                 address_of(columns) % 16 == 0;
  std::vector<int64_t> words = params(input, columns, g, stride_n, stride_row, 1);
  words.push_back(vectors ? 1 : 0);
  int64_t chunks = (g.positions() + vec - 1) / vec;
  launch_with_params(device_for(input), "im2col." + std::to_string(width), words,
                     static_cast<uint64_t>(g.batch * g.channels * g.taps() * chunks),
                     {span_of(input, false), span_of(columns, true)});
}

}  // namespace

void set_positions(Geometry& g) {
  g.out.clear();
  for (int64_t d = 0; d < g.dims(); ++d)
    g.out.push_back(
        (g.in[d] + 2 * g.padding[d] - g.dilation[d] * (g.kernel[d] - 1) - 1) / g.stride[d] + 1);
}

at::Tensor columns(const at::Tensor& input, const Geometry& g) {
  int64_t rows = g.channels * g.taps();
  at::Tensor out = at::empty({g.batch, g.groups, rows / g.groups, g.positions()}, input.options());
  write_columns(input, g, out, rows * g.positions(), g.positions());
  return out;
}

at::Tensor columns_across_batch(const at::Tensor& input, const Geometry& g) {
  int64_t rows = g.channels * g.taps();
  at::Tensor out = at::empty({g.groups, rows / g.groups, g.batch * g.positions()}, input.options());
  write_columns(input, g, out, g.positions(), g.batch * g.positions());
  return out;
}

at::Tensor add_columns(const at::Tensor& grad_columns, const Geometry& g, c10::ScalarType result) {
  TORCH_CHECK_NOT_IMPLEMENTED(at::isFloatingType(result) || at::isIntegralType(result, false),
                              "\"col2im\" not implemented for '", c10::toString(result), "'");
  c10::ScalarType from = grad_columns.scalar_type();
  TORCH_INTERNAL_ASSERT(from == result ||
                        (from == c10::kFloat && c10::isReducedFloatingType(result)));
  std::vector<int64_t> sizes = {g.batch, g.channels};
  sizes.insert(sizes.end(), g.in.begin(), g.in.end());
  at::Tensor image = at::empty(sizes, grad_columns.options().dtype(result));
  at::Tensor rows = grad_columns.reshape({g.batch, g.channels * g.taps(), g.positions()});
  std::vector<int64_t> words =
      params(image, rows, g, rows.stride(0), rows.stride(1), rows.stride(2));
  std::string kernel = from == result ? "col2im.add." : "col2im_f32.add.";
  launch_with_params(device_for(image), kernel + dtype_name(result), words,
                     static_cast<uint64_t>(image.numel()),
                     {span_of(rows, false), span_of(image, true)});
  return image;
}

}  // namespace torchvulkan::conv
