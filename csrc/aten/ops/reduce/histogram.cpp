// bincount, histc, histogram and histogramdd as native scatter-adds of ones (or weights)
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
//   histogramdd: the same for points (rows) in D dimensions, each bin
//              index found in its dimension's edges, hist[i_0, ..., i_D-1].
#include <ATen/TensorOperators.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/aminmax.h>
#include <ATen/ops/diff.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/linspace.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/searchsorted.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

#include <cmath>
#include <utility>
#include <vector>

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

// The CPU's checks of dimension `dim`'s bin edges, in its words.
void check_edges(const at::Tensor& self, const at::Tensor& edges, int64_t dim) {
  TORCH_CHECK(
      self.scalar_type() == edges.scalar_type(),
      "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got "
      "input with dtype ",
      self.dtype(), " and bins for dimension ", dim, " with dtype ", edges.dtype());
  TORCH_CHECK(edges.dim() == 1,
              "torch.histogramdd: bins tensor should have one dimension, but got ", edges.dim(),
              " dimensions in the bins tensor for dimension ", dim);
  TORCH_CHECK(edges.numel() > 0,
              "torch.histogramdd: bins tensor should have at least 1 element, but got ",
              edges.numel(), " elements in the bins tensor for dimension ", dim);
}

// The CPU's checks of the input (as [N, D]: each row one point), the bin
// edges of each dimension and the weight (one a point), in its words.
void check_histogram(const at::Tensor& points, at::TensorList edges,
                     const std::optional<at::Tensor>& weight) {
  for (int64_t d = 0; d < static_cast<int64_t>(edges.size()); ++d) check_edges(points, edges[d], d);
  if (weight) {
    TORCH_CHECK(points.dtype() == weight->dtype(),
                "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor "
                "should have the same dtype, but got input(",
                points.dtype(), "), and weight(", weight->dtype(), ")");
    TORCH_CHECK(weight->numel() == points.size(0),
                "torch.histogramdd: if weight tensor is provided it should have the same shape as "
                "the input tensor excluding its innermost dimension, but got input with shape ",
                points.sizes(), " and weight with shape ", weight->sizes());
  }
}

void check_histogram(const at::Tensor& self, const at::Tensor& edges,
                     const std::optional<at::Tensor>& weight) {
  auto flat_weight = weight ? std::optional<at::Tensor>(weight->reshape({-1})) : std::nullopt;
  check_histogram(self.reshape({-1, 1}), at::TensorList{edges}, flat_weight);
}

void check_bin_count(int64_t bins, int64_t dim) {
  TORCH_CHECK(bins > 0, "torch.histogram(): bins must be > 0, but got ", bins, " for dimension ",
              dim);
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
  check_bin_count(bins, 0);
  at::native::resize_output(bin_edges, {bins + 1});
  at::native::resize_output(hist, {bins});
}

// hist (one dim a dimension of the points, contiguous) from the points
// [N, D] and each dimension's bin edges (already written and checked). A
// point outside the edges in any dimension (NaN included) adds nothing,
// whatever its weight; the others add to the bin whose flat index sums each
// dimension's bin times its stride.
void fill_histogram(const at::Tensor& points, at::TensorList edges,
                    const std::optional<at::Tensor>& weight, bool density, at::Tensor& hist) {
  TORCH_CHECK_NOT_IMPLEMENTED(
      points.scalar_type() == at::kFloat || points.scalar_type() == at::kDouble,
      "\"histogram_cpu\" not implemented for '", c10::toString(points.scalar_type()), "'");
  hist.zero_();
  int64_t dims = points.size(1);
  if (points.size(0) > 0 && hist.numel() > 0) {
    at::Tensor bin = at::zeros({points.size(0)}, points.options().dtype(at::kLong));
    at::Tensor inside = at::ones({points.size(0)}, points.options().dtype(at::kBool));
    int64_t stride = 1;
    for (int64_t d = dims - 1; d >= 0; --d) {
      int64_t bins = edges[d].numel() - 1;
      at::Tensor x = points.select(1, d).contiguous();
      bin += (at::searchsorted(edges[d], x, /*out_int32=*/false, /*right=*/true) - 1)
                 .clamp(0, bins - 1) *
             stride;
      inside &= (x >= edges[d][0]) & (x <= edges[d][bins]);
      stride *= bins;
    }
    at::Tensor added =
        weight ? at::where(inside, weight->reshape({-1}), 0) : inside.to(hist.scalar_type());
    hist.view({-1}).scatter_add_(0, bin, added);
  }
  if (!density) return;
  hist.div_(hist.sum());
  for (int64_t d = 0; d < dims; ++d) {
    std::vector<int64_t> along(dims, 1);
    along[d] = -1;
    hist.div_(at::diff(edges[d]).view(along));
  }
}

void fill_histogram(const at::Tensor& self, const std::optional<at::Tensor>& weight, bool density,
                    at::Tensor& hist, const at::Tensor& bin_edges) {
  fill_histogram(self.reshape({-1, 1}), at::TensorList{bin_edges}, weight, density, hist);
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

// Each dimension's first and last bin edge: `range` (two a dimension), else
// the points' least and greatest values (read back once, as on CUDA), else
// numpy's [0, 1]; a single value v becomes [v - 0.5, v + 0.5].
std::vector<std::pair<double, double>> outer_edges(const at::Tensor& points,
                                                   std::optional<at::ArrayRef<double>> range) {
  int64_t dims = points.size(1);
  std::vector<std::pair<double, double>> edges(dims, {0.0, 1.0});
  if (range) {
    TORCH_CHECK(static_cast<int64_t>(range->size()) == 2 * dims, "torch.histogramdd: for a ", dims,
                "-dimensional histogram range should have ", 2 * dims, " elements, but got ",
                range->size());
    for (int64_t d = 0; d < dims; ++d) edges[d] = {(*range)[2 * d], (*range)[2 * d + 1]};
  } else if (points.numel() > 0) {
    TORCH_CHECK_NOT_IMPLEMENTED(
        points.scalar_type() == at::kFloat || points.scalar_type() == at::kDouble,
        "\"histogramdd\" not implemented for '", c10::toString(points.scalar_type()), "'");
    auto [lowest, highest] = at::aminmax(points, 0);
    at::Tensor both = at::stack({lowest, highest}).to(at::kCPU, at::kDouble);
    for (int64_t d = 0; d < dims; ++d)
      edges[d] = {both[0][d].item<double>(), both[1][d].item<double>()};
  }
  for (int64_t d = 0; d < dims; ++d) {
    auto& [low, high] = edges[d];
    TORCH_CHECK(std::isfinite(low) && std::isfinite(high), "torch.histogramdd: dimension ", d,
                "'s range [", low, ", ", high, "] is not finite");
    TORCH_CHECK(low <= high, "torch.histogramdd: min should not exceed max, but got min ", low,
                " max ", high, " for dimension ", d);
    if (low == high) {
      low -= 0.5;
      high += 0.5;
    }
  }
  return edges;
}

std::tuple<at::Tensor&, at::Tensor&> histogram_count_out(const at::Tensor& self, int64_t bins,
                                                         std::optional<at::ArrayRef<double>> range,
                                                         const std::optional<at::Tensor>& weight,
                                                         bool density, at::Tensor& hist,
                                                         at::Tensor& bin_edges) {
  prepare_histogram(self, bins, hist, bin_edges);
  auto [low, high] = outer_edges(self.reshape({-1, 1}), range)[0];
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

// torch.histogramdd's ops: the points are the input's rows, its last dim
// the dimensions.
at::Tensor points_of(const at::Tensor& self, size_t dims) {
  TORCH_CHECK(self.dim() >= 2, "torch.histogramdd: input tensor should have at least 2 dimensions");
  TORCH_CHECK(self.size(-1) == static_cast<int64_t>(dims),
              "histogramdd: The size of bins must be equal to the innermost dimension of the "
              "input.");
  return self.reshape({-1, self.size(-1)});
}

std::vector<at::Tensor> histogramdd_bin_edges(const at::Tensor& self, at::IntArrayRef bins,
                                              std::optional<at::ArrayRef<double>> range,
                                              const std::optional<at::Tensor>& weight, bool) {
  at::Tensor points = points_of(self, bins.size());
  for (size_t d = 0; d < bins.size(); ++d) check_bin_count(bins[d], static_cast<int64_t>(d));
  auto outer = outer_edges(points, range);
  std::vector<at::Tensor> edges;
  for (size_t d = 0; d < bins.size(); ++d)
    edges.push_back(at::linspace(outer[d].first, outer[d].second, bins[d] + 1, self.options()));
  check_histogram(points, edges, weight);
  return edges;
}

void histogramdd_bin_edges_out(const at::Tensor& self, at::IntArrayRef bins,
                               std::optional<at::ArrayRef<double>> range,
                               const std::optional<at::Tensor>& weight, bool density,
                               at::TensorList out) {
  auto edges = histogramdd_bin_edges(self, bins, range, weight, density);
  TORCH_CHECK(out.size() == edges.size(), "torch.histogramdd: expected ", edges.size(),
              " bin edge tensors, got ", out.size());
  for (size_t d = 0; d < edges.size(); ++d) {
    at::native::resize_output(out[d], edges[d].sizes());
    out[d].copy_(edges[d]);
  }
}

at::Tensor histogramdd_from_edges(const at::Tensor& self, at::TensorList bins,
                                  const std::optional<at::Tensor>& weight, bool density) {
  at::Tensor points = points_of(self, bins.size());
  check_histogram(points, bins, weight);
  std::vector<int64_t> sizes;
  for (const at::Tensor& edges : bins) sizes.push_back(edges.numel() - 1);
  at::Tensor hist = at::empty(sizes, self.options());
  fill_histogram(points, bins, weight, density, hist);
  return hist;
}

at::Tensor histogramdd_from_counts(const at::Tensor& self, at::IntArrayRef bins,
                                   std::optional<at::ArrayRef<double>> range,
                                   const std::optional<at::Tensor>& weight, bool density) {
  return histogramdd_from_edges(self, histogramdd_bin_edges(self, bins, range, weight, density),
                                weight, density);
}

at::Tensor& copied_hist(const at::Tensor& self, const at::Tensor& hist, at::Tensor& out) {
  TORCH_CHECK(self.dtype() == out.dtype(),
              "torch.histogramdd: input tensor and hist tensor should have the same dtype, but got "
              "input ",
              self.dtype(), " and hist ", out.dtype());
  at::native::resize_output(out, hist.sizes());
  return out.copy_(hist);
}

at::Tensor& histogramdd_from_edges_out(const at::Tensor& self, at::TensorList bins,
                                       const std::optional<at::Tensor>& weight, bool density,
                                       at::Tensor& out) {
  return copied_hist(self, histogramdd_from_edges(self, bins, weight, density), out);
}

at::Tensor& histogramdd_from_counts_out(const at::Tensor& self, at::IntArrayRef bins,
                                        std::optional<at::ArrayRef<double>> range,
                                        const std::optional<at::Tensor>& weight, bool density,
                                        at::Tensor& out) {
  return copied_hist(self, histogramdd_from_counts(self, bins, range, weight, density), out);
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
  m.impl("_histogramdd_bin_edges", histogramdd_bin_edges);
  m.impl("_histogramdd_bin_edges.out", histogramdd_bin_edges_out);
  m.impl("_histogramdd_from_bin_cts", histogramdd_from_counts);
  m.impl("_histogramdd_from_bin_cts.out", histogramdd_from_counts_out);
  m.impl("_histogramdd_from_bin_tensors", histogramdd_from_edges);
  m.impl("_histogramdd_from_bin_tensors.out", histogramdd_from_edges_out);
}

}  // namespace torchvulkan
