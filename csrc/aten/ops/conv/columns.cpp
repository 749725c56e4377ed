#include "aten/ops/conv/columns.h"

#include <ATen/OpMathType.h>
#include <ATen/ops/constant_pad_nd.h>
#include <ATen/ops/zeros.h>

#include <algorithm>

namespace torchvulkan::conv {
namespace {

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

}  // namespace

void set_positions(Geometry& g) {
  g.out.clear();
  for (int64_t d = 0; d < g.dims(); ++d)
    g.out.push_back(
        (g.in[d] + 2 * g.padding[d] - g.dilation[d] * (g.kernel[d] - 1) - 1) / g.stride[d] + 1);
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

at::Tensor add_columns(const at::Tensor& grad_columns, const Geometry& g, c10::ScalarType result) {
  at::Tensor apart = grad_columns.view(column_sizes(g));
  std::vector<int64_t> padded_sizes = {g.batch, g.channels};
  for (int64_t d = 0; d < g.dims(); ++d) padded_sizes.push_back(g.in[d] + 2 * g.padding[d]);
  at::Tensor padded =
      at::zeros(padded_sizes, grad_columns.options().dtype(at::toOpMathType(result)));
  std::vector<int64_t> sizes = window_sizes(g), strides = window_strides(padded, g);
  std::vector<int64_t> tap(g.dims(), 0);
  for (int64_t t = 0; t < g.taps(); ++t) {
    int64_t first = 0;
    at::Tensor source = apart;
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
  return grad_input.to(result, /*non_blocking=*/false, /*copy=*/false,
                       at::MemoryFormat::Contiguous);
}

}  // namespace torchvulkan::conv
