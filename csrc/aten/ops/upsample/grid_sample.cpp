// grid_sampler_2d, grid_sampler_3d and their backwards (F.grid_sample; its
// composite picks these): one invocation per grid point
// (shaders/upsample/grid_sample.comp), over the input seen as [N, C, D, H,
// W] and the grid as [N, D, H, W, coordinates]. ATen's own checks
// (GridSamplerUtils.h) guard the arguments. The backward accumulates
// grad_input with atomics in float32 or float64: 16-bit inputs go through
// float32 copies, which also keeps their gradient sums from rounding at
// every addition.
#include <ATen/native/GridSamplerUtils.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/zeros_like.h>
#include <torch/library.h>

#include <array>
#include <tuple>
#include <vector>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/ops/volume.h"

namespace torchvulkan {
namespace {

// A 4-D grid [N, H, W, 2] as [N, 1, H, W, 2].
at::Tensor grid_5d(const at::Tensor& grid) {
  return grid.dim() == 4 ? grid.unsqueeze(1) : grid;
}

// Runs grid_sample.<op>.<dtype of input>. `values`: the output (forward) or
// grad_output; grad_input (optional) and grad_grid only backward.
void launch(const char* op, const at::Tensor& input, const at::Tensor& grid,
            const at::Tensor& values, const at::Tensor& grad_input, const at::Tensor& grad_grid,
            int64_t interpolation, int64_t padding, bool align_corners) {
  at::Tensor in = five_d(input), g = grid_5d(grid), v = five_d(values);
  if (v.numel() == 0 && !grad_grid.defined()) return;
  bool forward = !grad_grid.defined();
  at::Tensor gi = grad_input.defined() ? five_d(grad_input) : grad_input,
             gg = forward ? grad_grid : grid_5d(grad_grid);
  if (g.numel() == 0) return;
  int64_t pointers[] = {int64_t(address_of(in)), int64_t(address_of(g)), int64_t(address_of(v)),
                        int64_t(address_of(gi)), int64_t(address_of(gg))};
  std::vector<int64_t> words(std::begin(pointers), std::end(pointers));
  words.insert(words.end(), {in.size(0), in.size(1), in.size(2), in.size(3), in.size(4), g.size(1),
                             g.size(2), g.size(3)});
  for (const at::Tensor* t : {&in, &g, &v, &gi, &gg}) {
    if (t->defined())
      words.insert(words.end(), t->strides().begin(), t->strides().end());
    else
      words.insert(words.end(), 5, 0);
  }
  words.insert(words.end(), {interpolation, padding, int64_t(align_corners), grid.dim() - 2});
  std::vector<rt::Access> accesses = {span_of(in, false), span_of(g, false), span_of(v, forward)};
  if (gi.defined()) accesses.push_back(span_of(gi, true));
  if (gg.defined()) accesses.push_back(span_of(gg, true));
  launch_with_params(device_for(input),
                     std::string("grid_sample.") + op + "." + dtype_name(in.scalar_type()), words,
                     static_cast<uint64_t>(g.numel() / g.size(4)), accesses);
}

void check(const at::Tensor& input, const at::Tensor& grid, int64_t interpolation) {
  at::native::check_grid_sampler_common(input, grid);
  if (input.dim() == 4)
    at::native::check_grid_sampler_2d(input, grid);
  else
    at::native::check_grid_sampler_3d(input, grid, interpolation);
  TORCH_CHECK(grid.scalar_type() == input.scalar_type(), "grid_sampler(): expected scalar type ",
              input.scalar_type(), " for the grid (the input's) but found ", grid.scalar_type());
  TORCH_CHECK_NOT_IMPLEMENTED(at::isFloatingType(input.scalar_type()),
                              "\"grid_sampler\" not implemented for '",
                              c10::toString(input.scalar_type()), "'");
}

at::Tensor grid_sampler(const at::Tensor& input, const at::Tensor& grid, int64_t interpolation,
                        int64_t padding, bool align_corners) {
  check(input, grid, interpolation);
  std::vector<int64_t> sizes = {input.size(0), input.size(1)};
  sizes.insert(sizes.end(), grid.sizes().begin() + 1, grid.sizes().end() - 1);
  at::Tensor out = at::empty(sizes, input.options());
  launch("forward", input, grid, out, {}, {}, interpolation, padding, align_corners);
  return out;
}

std::tuple<at::Tensor, at::Tensor> grid_sampler_backward(
    const at::Tensor& grad_output, const at::Tensor& input, const at::Tensor& grid,
    int64_t interpolation, int64_t padding, bool align_corners, std::array<bool, 2> output_mask) {
  check(input, grid, interpolation);
  c10::ScalarType type = input.scalar_type();
  if (type == c10::kHalf || type == c10::kBFloat16) {
    auto [gi, gg] =
        grid_sampler_backward(grad_output.to(at::kFloat), input.to(at::kFloat), grid.to(at::kFloat),
                              interpolation, padding, align_corners, output_mask);
    return {gi.defined() ? gi.to(type) : gi, gg.to(type)};
  }
  if (type == c10::kDouble) {
    rt::Device& dev = device_for(input);
    TORCH_CHECK(dev.caps().int64_atomics, "torchvulkan: ", dev.caps().name,
                " has no 64-bit atomics (shaderBufferInt64Atomics), needed for the float64 "
                "grid_sample backward");
  }
  at::Tensor grad_input =
      output_mask[0] ? at::zeros_like(input, at::MemoryFormat::Contiguous) : at::Tensor();
  at::Tensor grad_grid = at::empty_like(grid, at::MemoryFormat::Contiguous);
  launch("backward", input, grid, grad_output, grad_input, grad_grid, interpolation, padding,
         align_corners);
  return {grad_input, grad_grid};
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("grid_sampler_2d", grid_sampler);
  m.impl("grid_sampler_2d_backward", grid_sampler_backward);
  m.impl("grid_sampler_3d", grid_sampler);
  m.impl("grid_sampler_3d_backward", grid_sampler_backward);
}

}  // namespace torchvulkan
