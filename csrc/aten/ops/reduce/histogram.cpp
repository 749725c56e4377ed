// bincount and histc as native scatter-adds of ones (or weights) into bins.
// Both need values from the device to size or place their bins (bincount:
// the largest input; histc with min == max: the input's range), so those
// forms wait for the device once, as on CUDA.
//   bincount: out[x] += weight (1 without weights), len = max(max(x) + 1, minlength)
//   histc:    out[floor((x - min) * bins / (max - min))] += 1 for min <= x <= max
//             (x = max in the last bin)
#include <ATen/TensorOperators.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/aminmax.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

#include <cmath>

namespace torchvulkan {
namespace {

at::Tensor bincount(const at::Tensor& self, const std::optional<at::Tensor>& weights,
                    int64_t minlength) {
  TORCH_CHECK(minlength >= 0, "minlength should be >= 0");
  TORCH_CHECK(self.dim() == 1 && at::isIntegralType(self.scalar_type(), /*includeBool=*/false),
              "bincount only supports 1-d non-negative integral inputs.");
  bool weighted = weights && weights->defined();
  if (weighted)
    TORCH_CHECK(weights->dim() == 1 && weights->size(0) == self.size(0),
                "weights should be 1-d and have the same length as input");
  int64_t length = minlength;
  if (self.numel() > 0) {
    auto [low, high] = at::aminmax(self);
    TORCH_CHECK(low.item<int64_t>() >= 0,
                "bincount only supports 1-d non-negative integral inputs.");
    length = std::max(length, high.item<int64_t>() + 1);
  }
  // The CPU's output dtypes: int64 counts, float32 weights summed as float32,
  // any other weights as float64.
  c10::ScalarType type = !weighted                              ? at::kLong
                         : weights->scalar_type() == at::kFloat ? at::kFloat
                                                                : at::kDouble;
  at::Tensor out = at::zeros({length}, self.options().dtype(type));
  if (self.numel() == 0) return out;
  at::Tensor added = weighted ? weights->to(type) : at::ones_like(self, out.options());
  return out.scatter_add_(0, self.to(at::kLong), added);
}

at::Tensor& histc_out(const at::Tensor& self, int64_t bins, const at::Scalar& min,
                      const at::Scalar& max, at::Tensor& out) {
  TORCH_CHECK(at::isFloatingType(self.scalar_type()), "\"histogram_cpu\" not implemented for '",
              c10::toString(self.scalar_type()), "'");
  TORCH_CHECK(bins > 0, "torch.histc: bins must be > 0, but got ", bins, " for bins");
  double low = min.toDouble(), high = max.toDouble();
  if (low == high && self.numel() > 0) {
    auto [lowest, highest] = at::aminmax(self);
    low = lowest.item<double>();
    high = highest.item<double>();
  }
  if (low == high) {
    low -= 1;
    high += 1;
  }
  TORCH_CHECK(std::isfinite(low) && std::isfinite(high), "torch.histc: range of [", low, ", ", high,
              "] is not finite");
  TORCH_CHECK(low < high, "torch.histc: max must be larger than min");
  at::native::resize_output(out, {bins});
  out.zero_();
  if (self.numel() == 0) return out;
  at::Tensor x = self.reshape({-1});
  // In the input's dtype, as the CPU computes the bin.
  at::Tensor width = at::scalar_tensor(high, x.options()) - at::scalar_tensor(low, x.options());
  at::Tensor bin = ((x - low) * bins / width).to(at::kLong).clamp(0, bins - 1);
  at::Tensor inside = (x >= low) & (x <= high);
  return out.scatter_add_(0, bin, inside.to(out.scalar_type()));
}

at::Tensor histc(const at::Tensor& self, int64_t bins, const at::Scalar& min,
                 const at::Scalar& max) {
  at::Tensor out = at::empty({0}, self.options());
  return histc_out(self, bins, min, max, out);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("bincount", bincount);
  m.impl("histc", histc);
  m.impl("histc.out", histc_out);
}

}  // namespace torchvulkan
