// nn.EmbeddingBag / F.embedding_bag: _embedding_bag (and its forward-only
// form), _embedding_bag_backward (dense gradients), its dense form and
// _embedding_bag_per_sample_weights_backward, as native gathers and
// scatters. With bag(i) the bag that index i falls in (offset2bag) and rows
// the weight rows the indices name:
//   sum:  out[b] = sum over i in b of rows[i] (* per_sample_weights[i])
//   mean: out[b] = that sum / bag_size[b]
//   max:  out[b] = elementwise max over i in b of rows[i]
// Indices equal to padding_idx take no part (nor count in bag_size), and an
// empty bag gives zeros, as on the CPU; with include_last_offset, neither do
// indices past the last offset (the CPU's three modes disagree there). offset2bag is a cumulative
// count of the offsets at or before each position. The auxiliary outputs are what the backward here
// reads: offset2bag, bag_size [B] and, for max, the weight row that won each element ([B, D], -1
// for empty bags).
#include <ATen/TensorOperators.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/embedding_dense_backward.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/full.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

#include <limits>

namespace torchvulkan {
namespace {

enum Mode : int64_t { kSum = 0, kMean = 1, kMax = 2 };

void check_arguments(const at::Tensor& weight, const at::Tensor& indices, const at::Tensor& offsets,
                     int64_t mode, const std::optional<at::Tensor>& per_sample_weights) {
  TORCH_CHECK(weight.dim() == 2,
              "embedding_bag: weight has to be a 2D Tensor, but got Tensor of dimension ",
              weight.dim());
  TORCH_CHECK(indices.dim() == 1, "input has to be a 1D or 2D Tensor, but got Tensor of dimension ",
              indices.dim());
  TORCH_CHECK(offsets.dim() == 1, "offsets has to be a 1D Tensor, but got Tensor of dimension ",
              offsets.dim());
  for (const at::Tensor* t : {&indices, &offsets}) {
    TORCH_CHECK(t->scalar_type() == at::kLong || t->scalar_type() == at::kInt,
                "embedding_bag: expected indices and offsets of type Long or Int, but got ",
                t->scalar_type());
  }
  TORCH_CHECK(at::isFloatingType(weight.scalar_type()), "\"embedding_bag\" not implemented for '",
              c10::toString(weight.scalar_type()), "'");
  TORCH_CHECK(mode >= kSum && mode <= kMax,
              "embedding_bag: mode must be 0 (sum), 1 (mean) or 2 (max), got ", mode);
  if (per_sample_weights && per_sample_weights->defined()) {
    TORCH_CHECK(
        mode == kSum,
        "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
        "mode='sum' (got mode='",
        mode == kMean ? "mean" : "max", "'). Please open a feature request on GitHub.");
    TORCH_CHECK(
        per_sample_weights->sizes() == indices.sizes(),
        "embedding_bag: expected per_sample_weights to have the same shape as input, but got ",
        per_sample_weights->sizes(), " and ", indices.sizes());
  }
}

// The bag of each index: the number of offsets at or before its position,
// less one.
at::Tensor offset2bag(const at::Tensor& offsets, int64_t n) {
  at::Tensor starts = offsets.to(at::kLong).clamp(0, n);
  at::Tensor marks =
      at::zeros({n + 1}, starts.options()).scatter_add_(0, starts, at::ones_like(starts));
  return (marks.cumsum(0) - 1).clamp_min(0).narrow(0, 0, n);
}

// Whether each index takes part (is not padding_idx).
at::Tensor taking_part(const at::Tensor& indices, int64_t padding_idx) {
  return padding_idx >= 0 ? indices != padding_idx
                          : at::ones_like(indices, indices.options().dtype(at::kBool));
}

std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor> embedding_bag(
    const at::Tensor& weight, const at::Tensor& indices, const at::Tensor& offsets,
    bool /*scale_grad_by_freq*/, int64_t mode, bool /*sparse*/,
    const std::optional<at::Tensor>& per_sample_weights, bool include_last_offset,
    int64_t padding_idx) {
  check_arguments(weight, indices, offsets, mode, per_sample_weights);
  int64_t n = indices.size(0), d = weight.size(1);
  int64_t bags = std::max<int64_t>(offsets.size(0) - (include_last_offset ? 1 : 0), 0);
  at::Tensor bag = offset2bag(offsets, n);
  if (bags == 0)
    return {at::zeros({0, d}, weight.options()), bag, at::zeros({0}, bag.options()),
            at::empty({0}, bag.options())};
  at::Tensor part = taking_part(indices, padding_idx);
  if (include_last_offset) {
    // Indices past the last offset belong to no bag.
    part = part & (bag < bags);
    bag = bag.clamp_max(bags - 1);
  }
  at::Tensor bag_size = at::zeros({bags}, bag.options()).scatter_add_(0, bag, part.to(at::kLong));
  at::Tensor rows = weight.index_select(0, indices);
  at::Tensor per_row = bag.unsqueeze(1).expand({n, d});
  at::Tensor present = part.unsqueeze(1);
  if (mode == kMax) {
    at::Tensor lowest = at::full({}, -std::numeric_limits<double>::infinity(), weight.options());
    at::Tensor candidates = at::where(present, rows, lowest);
    at::Tensor best =
        at::full({bags, d}, -std::numeric_limits<double>::infinity(), weight.options())
            .scatter_reduce_(0, per_row, candidates, "amax");
    // The first position in its bag that holds the maximum, as the CPU keeps.
    at::Tensor positions = at::arange(n, bag.options()).unsqueeze(1).expand({n, d});
    at::Tensor winning =
        at::where(present & (candidates == best.index_select(0, bag)), positions, n);
    at::Tensor first =
        at::full({bags, d}, n, bag.options()).scatter_reduce_(0, per_row, winning, "amin");
    at::Tensor full_bag = (bag_size > 0).unsqueeze(1);
    at::Tensor winners =
        n == 0 ? at::full({bags * d}, -1, bag.options())
               : indices.to(at::kLong).index_select(0, first.clamp_max(n - 1).view(-1));
    at::Tensor max_indices = at::where(full_bag, winners.view({bags, d}), -1);
    return {at::where(full_bag, best, 0), bag, bag_size, max_indices};
  }
  // 16-bit weights are summed in float32, as the CPU does.
  c10::ScalarType acc = weight.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
  at::Tensor contributions = rows.to(acc);
  if (per_sample_weights && per_sample_weights->defined())
    contributions = contributions * per_sample_weights->to(acc).unsqueeze(1);
  contributions = at::where(present, contributions, 0);
  at::Tensor out =
      at::zeros({bags, d}, weight.options().dtype(acc)).scatter_add_(0, per_row, contributions);
  if (mode == kMean) out.div_(bag_size.clamp_min(1).unsqueeze(1).to(acc));
  return {out.to(weight.scalar_type()), bag, bag_size, at::empty({0}, bag.options())};
}

at::Tensor embedding_bag_dense_backward(const at::Tensor& grad, const at::Tensor& indices,
                                        const at::Tensor& bag, const at::Tensor& bag_size,
                                        const at::Tensor& maximum_indices, int64_t num_weights,
                                        bool scale_grad_by_freq, int64_t mode,
                                        const std::optional<at::Tensor>& per_sample_weights,
                                        int64_t padding_idx) {
  int64_t d = grad.size(1);
  if (grad.size(0) == 0) return at::zeros({num_weights, d}, grad.options());
  if (mode == kMax) {
    at::Tensor won = maximum_indices >= 0;
    return at::zeros({num_weights, d}, grad.options())
        .scatter_add_(0, maximum_indices.clamp_min(0), at::where(won, grad, 0));
  }
  at::Tensor rows = grad.index_select(0, bag);
  if (mode == kMean)
    rows = rows / bag_size.index_select(0, bag).clamp_min(1).unsqueeze(1).to(grad.scalar_type());
  if (per_sample_weights && per_sample_weights->defined())
    rows = rows * per_sample_weights->unsqueeze(1);
  return at::embedding_dense_backward(rows, indices, num_weights, padding_idx, scale_grad_by_freq);
}

at::Tensor embedding_bag_backward(const at::Tensor& grad, const at::Tensor& indices,
                                  const at::Tensor& /*offsets*/, const at::Tensor& bag,
                                  const at::Tensor& bag_size, const at::Tensor& maximum_indices,
                                  int64_t num_weights, bool scale_grad_by_freq, int64_t mode,
                                  bool sparse, const std::optional<at::Tensor>& per_sample_weights,
                                  int64_t padding_idx) {
  TORCH_CHECK_NOT_IMPLEMENTED(
      !sparse,
      "embedding_bag: sparse gradients (sparse=True) are not supported on the "
      "vulkan device; use sparse=False");
  return embedding_bag_dense_backward(grad, indices, bag, bag_size, maximum_indices, num_weights,
                                      scale_grad_by_freq, mode, per_sample_weights, padding_idx);
}

// The gradient for per_sample_weights (mode sum): each index's row of the
// weight dotted with its bag's gradient.
at::Tensor embedding_bag_per_sample_weights_backward(
    const at::Tensor& grad, const at::Tensor& weight, const at::Tensor& indices,
    const at::Tensor& /*offsets*/, const at::Tensor& bag, int64_t mode, int64_t padding_idx) {
  TORCH_CHECK(mode == kSum,
              "embedding_bag_backward: per_sample_weights only supported for mode='sum'");
  at::Tensor dots = (grad.index_select(0, bag) * weight.index_select(0, indices)).sum(1);
  return at::where(taking_part(indices, padding_idx), dots, 0);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_embedding_bag", embedding_bag);
  m.impl("_embedding_bag_forward_only", embedding_bag);
  m.impl("_embedding_bag_backward", embedding_bag_backward);
  m.impl("_embedding_bag_dense_backward", embedding_bag_dense_backward);
  m.impl("_embedding_bag_per_sample_weights_backward", embedding_bag_per_sample_weights_backward);
}

}  // namespace torchvulkan
