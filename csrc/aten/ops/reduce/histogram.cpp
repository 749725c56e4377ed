// bincount, histc and histogram as native scatter-adds of ones (or weights)
// into bins. They need values from the device to size or place their bins
// (bincount: the largest input; histc with min == max and histogram without
// a range: the input's range), so those forms wait for the device once, as
// on CUDA.
//   bincount:  out[x] += weight (1 without weights), len = max(max(x) + 1, minlength)
//   histc:     out[floor((x - min) * bins / (max - min))] += 1 for min <= x <= max
//              (x = max in the last bin)
//   histogram: hist[i] += weight for edges[i] <= x < edges[i + 1] (x = the last
//              edge in the last bin), edges given or linspace(min, max, bins + 1);
//              density divides by the total and by each bin's width. The
//              CPU finds each bin by a search among the edges (a local one
//              around its linear estimate with equal widths), so this
//              searches them too: the same bin for every x.
#include <ATen/TensorOperators.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/aminmax.h>
#include <ATen/ops/diff.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/linspace.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/searchsorted.h>
#include <ATen/ops/where.h>
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

// The CPU's checks of the input, the bin edges and the weight, in its words.
void check_histogram(const at::Tensor& self, const at::Tensor& edges,
                     const std::optional<at::Tensor>& weight) {
  TORCH_CHECK(
      self.scalar_type() == edges.scalar_type(),
      "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got "
      "input with dtype ",
      self.dtype(), " and bins for dimension 0 with dtype ", edges.dtype());
  TORCH_CHECK(edges.dim() == 1,
              "torch.histogramdd: bins tensor should have one dimension, but got ", edges.dim(),
              " dimensions in the bins tensor for dimension 0");
  TORCH_CHECK(edges.numel() > 0,
              "torch.histogramdd: bins tensor should have at least 1 element, but got ",
              edges.numel(), " elements in the bins tensor for dimension 0");
  if (weight) {
    TORCH_CHECK(self.dtype() == weight->dtype(),
                "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor "
                "should have the same dtype, but got input(",
                self.dtype(), "), and weight(", weight->dtype(), ")");
    TORCH_CHECK(weight->numel() == self.numel(),
                "torch.histogramdd: if weight tensor is provided it should have the same shape as "
                "the input tensor excluding its innermost dimension, but got input with shape ",
                at::IntArrayRef{self.numel(), 1}, " and weight with shape ",
                at::IntArrayRef{weight->numel()});
  }
}

// The outputs' dtypes checked and hist resized to `bins`, as the CPU does.
void prepare_histogram(const at::Tensor& self, int64_t bins, at::Tensor& hist,
                       at::Tensor& bin_edges) {
  TORCH_CHECK(self.dtype() == hist.dtype(),
              "torch.histogram: input tensor and hist tensor should have the same dtype, but got "
              "input ",
              self.dtype(), " and hist ", hist.dtype());
  TORCH_CHECK(self.dtype() == bin_edges.dtype(),
              "torch.histogram: input tensor and bin_edges tensor should have the same dtype, but "
              "got input ",
              self.dtype(), " and bin_edges ", bin_edges.dtype(), " for dimension 0");
  TORCH_CHECK(bins > 0, "torch.histogram(): bins must be > 0, but got ", bins, " for dimension 0");
  at::native::resize_output(bin_edges, {bins + 1});
  at::native::resize_output(hist, {bins});
}

// hist from self's values and bin_edges (already written and checked).
// Values outside the edges (NaN included) add nothing, whatever their weight.
void fill_histogram(const at::Tensor& self, const std::optional<at::Tensor>& weight, bool density,
                    at::Tensor& hist, const at::Tensor& bin_edges) {
  TORCH_CHECK(self.scalar_type() == at::kFloat || self.scalar_type() == at::kDouble,
              "\"histogram_cpu\" not implemented for '", c10::toString(self.scalar_type()), "'");
  int64_t bins = bin_edges.numel() - 1;
  hist.zero_();
  if (self.numel() > 0 && bins > 0) {
    at::Tensor x = self.reshape({-1});
    at::Tensor bin = (at::searchsorted(bin_edges, x, /*out_int32=*/false, /*right=*/true) - 1)
                         .clamp(0, bins - 1);
    at::Tensor inside = (x >= bin_edges[0]) & (x <= bin_edges[bins]);
    at::Tensor added =
        weight ? at::where(inside, weight->reshape({-1}), 0) : inside.to(hist.scalar_type());
    hist.scatter_add_(0, bin, added);
  }
  if (density) hist.div_(hist.sum()).div_(at::diff(bin_edges));
}

std::tuple<at::Tensor&, at::Tensor&> histogram_edges_out(const at::Tensor& self,
                                                         const at::Tensor& bins,
                                                         const std::optional<at::Tensor>& weight,
                                                         bool density, at::Tensor& hist,
                                                         at::Tensor& bin_edges) {
  check_histogram(self, bins, weight);
  prepare_histogram(self, bins.numel() - 1, hist, bin_edges);
  bin_edges.copy_(bins);
  fill_histogram(self, weight, density, hist, bin_edges);
  return {hist, bin_edges};
}

std::tuple<at::Tensor, at::Tensor> histogram_edges(const at::Tensor& self, const at::Tensor& bins,
                                                   const std::optional<at::Tensor>& weight,
                                                   bool density) {
  at::Tensor hist = at::empty({0}, self.options()), bin_edges = at::empty({0}, bins.options());
  histogram_edges_out(self, bins, weight, density, hist, bin_edges);
  return {hist, bin_edges};
}

std::tuple<at::Tensor&, at::Tensor&> histogram_count_out(const at::Tensor& self, int64_t bins,
                                                         std::optional<at::ArrayRef<double>> range,
                                                         const std::optional<at::Tensor>& weight,
                                                         bool density, at::Tensor& hist,
                                                         at::Tensor& bin_edges) {
  prepare_histogram(self, bins, hist, bin_edges);
  // numpy's default range for an empty input.
  double low = 0, high = 1;
  if (range) {
    TORCH_CHECK(range->size() == 2,
                "torch.histogramdd: for a 1-dimensional histogram range should have 2 elements, "
                "but got ",
                range->size());
    low = (*range)[0];
    high = (*range)[1];
  } else if (self.numel() > 0) {
    TORCH_CHECK(self.scalar_type() == at::kFloat || self.scalar_type() == at::kDouble,
                "\"histogramdd\" not implemented for '", c10::toString(self.scalar_type()), "'");
    auto [lowest, highest] = at::aminmax(self);
    low = lowest.item<double>();
    high = highest.item<double>();
  }
  TORCH_CHECK(std::isfinite(low) && std::isfinite(high), "torch.histogramdd: dimension 0's range [",
              low, ", ", high, "] is not finite");
  TORCH_CHECK(low <= high, "torch.histogramdd: min should not exceed max, but got min ", low,
              " max ", high, " for dimension 0");
  if (low == high) {
    low -= 0.5;
    high += 0.5;
  }
  at::linspace_out(bin_edges, low, high, bins + 1);
  check_histogram(self, bin_edges, weight);
  fill_histogram(self, weight, density, hist, bin_edges);
  return {hist, bin_edges};
}

std::tuple<at::Tensor, at::Tensor> histogram_count(const at::Tensor& self, int64_t bins,
                                                   std::optional<at::ArrayRef<double>> range,
                                                   const std::optional<at::Tensor>& weight,
                                                   bool density) {
  at::Tensor hist = at::empty({0}, self.options()), bin_edges = at::empty({0}, self.options());
  histogram_count_out(self, bins, range, weight, density, hist, bin_edges);
  return {hist, bin_edges};
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("bincount", bincount);
  m.impl("histc", histc);
  m.impl("histc.out", histc_out);
  m.impl("histogram.bins_tensor", histogram_edges);
  m.impl("histogram.bins_tensor_out", histogram_edges_out);
  m.impl("histogram.bin_ct", histogram_count);
  m.impl("histogram.bin_ct_out", histogram_count_out);
}

}  // namespace torchvulkan
