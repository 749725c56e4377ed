#include "aten/ops/pool/window.h"

#include <ATen/ops/zeros.h>

#include "aten/ops/volume.h"

namespace torchvulkan::pool {
namespace {

at::Tensor batched(const at::Tensor& t, int64_t spatial) {
  return t.dim() == spatial + 1 ? t.unsqueeze(0) : t;
}

}  // namespace

std::array<int64_t, 3> per_dim(at::IntArrayRef value, int64_t spatial, int64_t flat,
                               std::array<int64_t, 3> fallback) {
  if (value.empty()) return fallback;
  std::array<int64_t, 3> out = {flat, flat, flat};
  for (int64_t i = 0; i < spatial; ++i)
    out[3 - spatial + i] = value.size() == 1 ? value[0] : value[i];
  return out;
}

void launch(const std::string& kernel, bool forward, int64_t spatial, const at::Tensor& input_side,
            const at::Tensor& output_side, const std::vector<int64_t>& extra,
            const at::Tensor& indices, std::span<const at::Tensor> reads) {
  launch_volume(kernel, forward, batched(input_side, spatial), batched(output_side, spatial), extra,
                indices.defined() ? batched(indices, spatial) : indices, reads);
}

void scatter_backward(const at::Tensor& grad_output, const at::Tensor& indices,
                      const at::Tensor& grad_input, int64_t spatial) {
  at::Tensor g = batched(grad_output, spatial), idx = batched(indices, spatial),
             gi = batched(grad_input, spatial);
  if (gi.numel() == 0) return;
  int64_t n = gi.size(0), c = gi.size(1);
  at::Tensor planes = at::zeros({n, c, gi.numel() / (n * c)}, grad_input.options());
  planes.scatter_add_(2, idx.reshape({n, c, -1}), g.reshape({n, c, -1}));
  gi.copy_(planes.view(gi.sizes()));
}

}  // namespace torchvulkan::pool
