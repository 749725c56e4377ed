// im2col and col2im (F.unfold and F.fold), functional and out=: the
// convolution's column form alone (conv/columns.h), for 4-D [N, C, H, W] and
// 3-D [C, H, W] inputs. The checks and messages are the CPU's (ATen's
// im2col_shape_check.h).
#include <ATen/native/im2col_shape_check.h>
#include <torch/library.h>

#include "aten/ops/conv/columns.h"
#include "aten/out.h"

namespace torchvulkan {
namespace {

void check_pairs(at::IntArrayRef kernel_size, at::IntArrayRef dilation, at::IntArrayRef padding,
                 at::IntArrayRef stride) {
  TORCH_CHECK(kernel_size.size() == 2, "It is expected kernel_size equals to 2, but got size ",
              kernel_size.size());
  TORCH_CHECK(dilation.size() == 2, "It is expected dilation equals to 2, but got size ",
              dilation.size());
  TORCH_CHECK(padding.size() == 2, "It is expected padding equals to 2, but got size ",
              padding.size());
  TORCH_CHECK(stride.size() == 2, "It is expected stride equals to 2, but got size ",
              stride.size());
}

// The geometry of a one-group convolution of [N, C, in...] with this window.
conv::Geometry geometry(int64_t batch, int64_t channels, at::IntArrayRef in,
                        at::IntArrayRef kernel_size, at::IntArrayRef dilation,
                        at::IntArrayRef padding, at::IntArrayRef stride) {
  conv::Geometry g{batch, channels, channels, 1};
  g.in = in.vec();
  g.kernel = kernel_size.vec();
  g.dilation = dilation.vec();
  g.padding = padding.vec();
  g.stride = stride.vec();
  conv::set_positions(g);
  return g;
}

at::Tensor im2col(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef dilation,
                  at::IntArrayRef padding, at::IntArrayRef stride) {
  check_pairs(kernel_size, dilation, padding, stride);
  at::native::im2col_shape_check(self, at::Tensor(), kernel_size[0], kernel_size[1], dilation[0],
                                 dilation[1], padding[0], padding[1], stride[0], stride[1]);
  at::Tensor input = self.dim() == 3 ? self.unsqueeze(0) : self;
  conv::Geometry g = geometry(input.size(0), input.size(1), input.sizes().slice(2), kernel_size,
                              dilation, padding, stride);
  at::Tensor out = conv::columns(input, g).reshape({g.batch, g.channels * g.taps(), g.positions()});
  return self.dim() == 3 ? out.squeeze(0) : out;
}

at::Tensor col2im(const at::Tensor& self, at::IntArrayRef output_size, at::IntArrayRef kernel_size,
                  at::IntArrayRef dilation, at::IntArrayRef padding, at::IntArrayRef stride) {
  TORCH_CHECK(output_size.size() == 2, "It is expected output_size equals to 2, but got size ",
              output_size.size());
  check_pairs(kernel_size, dilation, padding, stride);
  at::native::col2im_shape_check(self, at::Tensor(), output_size[0], output_size[1], kernel_size[0],
                                 kernel_size[1], dilation[0], dilation[1], padding[0], padding[1],
                                 stride[0], stride[1]);
  at::Tensor columns = self.dim() == 2 ? self.unsqueeze(0) : self;
  int64_t taps = kernel_size[0] * kernel_size[1];
  conv::Geometry g = geometry(columns.size(0), columns.size(1) / taps, output_size, kernel_size,
                              dilation, padding, stride);
  at::Tensor out = conv::add_columns(
      columns.reshape({g.batch, 1, g.channels * taps, g.positions()}), g, self.scalar_type());
  return self.dim() == 2 ? out.squeeze(0) : out;
}

at::Tensor& im2col_out(const at::Tensor& self, at::IntArrayRef kernel_size,
                       at::IntArrayRef dilation, at::IntArrayRef padding, at::IntArrayRef stride,
                       at::Tensor& out) {
  return write_out(torchvulkan::im2col(self, kernel_size, dilation, padding, stride), out);
}

at::Tensor& col2im_out(const at::Tensor& self, at::IntArrayRef output_size,
                       at::IntArrayRef kernel_size, at::IntArrayRef dilation,
                       at::IntArrayRef padding, at::IntArrayRef stride, at::Tensor& out) {
  return write_out(torchvulkan::col2im(self, output_size, kernel_size, dilation, padding, stride),
                   out);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, lib) {
  lib.impl("im2col", im2col);
  lib.impl("im2col.out", im2col_out);
  lib.impl("col2im", col2im);
  lib.impl("col2im.out", col2im_out);
}

}  // namespace torchvulkan
