// index_select, the embedding backward and max_norm renorm (embedding itself is ATen's
// composite over index_select): a gather and an atomic scatter-add. Dim 0 of
// a contiguous tensor, embedding's case, is a whole-row gather
// (shaders/index/rows.comp); other dims take the elementwise gather.
#include <ATen/TensorOperators.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/div.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

#include "aten/context.h"
#include "aten/ops/index/kernels.h"

namespace torchvulkan {
namespace {

// Mirrors the push constants of shaders/index/rows.comp.
struct RowArgs {
  uint64_t table, out, index;
  int64_t table_rows, index_stride;
  uint32_t rows, row_units, index_bytes;
};

// out[r] = self[index[r]] row by row, when self and out are contiguous and
// the copy fits the kernel's 32-bit unit count; false (nothing launched) otherwise.
bool gather_rows(const at::Tensor& self, const at::Tensor& index, const at::Tensor& out) {
  if (self.dim() == 0 || self.size(0) == 0 || !self.is_contiguous() || !out.is_contiguous())
    return false;
  auto table = address_of(self);
  auto dst = address_of(out);
  uint64_t row_bytes = static_cast<uint64_t>(self.numel() / self.size(0)) * self.element_size();
  // The widest unit that divides the row and both base addresses.
  uint64_t width = 16;
  while ((row_bytes | table | dst) % width != 0) width /= 2;
  uint64_t row_units = row_bytes / width;
  if (static_cast<uint64_t>(index.numel()) * row_units >= INT32_MAX) return false;
  RowArgs args{table,
               dst,
               address_of(index),
               self.size(0),
               index.stride(0),
               static_cast<uint32_t>(index.numel()),
               static_cast<uint32_t>(row_units),
               static_cast<uint32_t>(index.element_size())};
  rt::Device& dev = device_for(out);
  const rt::Kernel& kernel = dev.pipelines().get("index_rows." + std::to_string(width));
  rt::Access accesses[] = {span_of(self, false), span_of(index, false), span_of(out, true)};
  constexpr uint64_t kSteps = 4;  // units per invocation, as in the shader
  uint64_t units = static_cast<uint64_t>(args.rows) * row_units;
  dev.stream().dispatch(kernel, &args, sizeof(args), nullptr, 0, (units + kSteps - 1) / kSteps,
                        accesses);
  return true;
}

at::Tensor& index_select_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                             at::Tensor& out) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK_INDEX(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  TORCH_CHECK(index.scalar_type() == at::kLong || index.scalar_type() == at::kInt,
              "index_select(): Expected dtype int32 or int64 for index");
  TORCH_CHECK(self.scalar_type() == out.scalar_type(),
              "index_select(): self and result must have the same scalar type");
  TORCH_CHECK(self.dim() > 0 || index.numel() == 1,
              "index_select(): Index to scalar can have only 1 value, got ", index.numel(),
              " value(s)");
  std::vector<int64_t> sizes = self.sizes().vec();
  if (self.dim() > 0) sizes[dim] = index.numel();
  at::native::resize_output(out, sizes);
  if (out.numel() == 0) return out;
  if (dim == 0 && gather_rows(self, index.reshape({-1}), out)) return out;
  at::Tensor src = self.dim() ? self : self.view({1});
  at::Tensor dst = self.dim() ? out : out.view({1});
  at::Tensor idx = index.to(at::kLong).reshape({-1});
  // src and idx restrided to the output's shape: src stays put along dim,
  // idx moves only along it.
  std::vector<int64_t> src_strides = src.strides().vec(), idx_strides(dst.dim(), 0);
  src_strides[dim] = 0;
  idx_strides[dim] = idx.stride(0);
  auto iter = index::config()
                  .add_output(dst)
                  .add_owned_const_input(src.as_strided(dst.sizes(), src_strides))
                  .add_owned_const_input(idx.as_strided(dst.sizes(), idx_strides))
                  .build();
  index::gather(iter, src.stride(dim) * static_cast<int64_t>(src.element_size()), src.size(dim),
                self);
  return out;
}

at::Tensor index_select(const at::Tensor& self, int64_t dim, const at::Tensor& index) {
  at::Tensor out = at::empty({0}, self.options());
  return index_select_out(self, dim, index, out);
}

// rows[idx[n]] += values[n] for values [N, D] (padding_idx rows skipped).
void add_rows(const at::Tensor& rows, const at::Tensor& idx, const at::Tensor& values,
              int64_t padding_idx) {
  int64_t n = idx.numel(), d = rows.size(1);
  auto iter = index::config()
                  .add_owned_output(rows.as_strided({n, d}, {0, rows.stride(1)}))
                  .add_const_input(values)
                  .add_owned_const_input(idx.view({n, 1}).expand({n, d}))
                  .build();
  std::optional<int64_t> skip =
      padding_idx >= 0 ? std::optional<int64_t>(padding_idx) : std::nullopt;
  index::scatter_reduce(iter, index::Reduce::sum,
                        rows.stride(0) * static_cast<int64_t>(rows.element_size()), rows.size(0),
                        rows, skip);
}

at::Tensor embedding_dense_backward(const at::Tensor& grad_output, const at::Tensor& indices,
                                    int64_t num_weights, int64_t padding_idx,
                                    bool scale_grad_by_freq) {
  at::Tensor idx = indices.to(at::kLong).reshape({-1});
  int64_t d = grad_output.size(-1);
  at::Tensor grad = grad_output.reshape({idx.numel(), d});
  at::Tensor grad_weight = at::zeros({num_weights, d}, grad_output.options());
  if (idx.numel() == 0) return grad_weight;
  if (scale_grad_by_freq) {
    // Each row's gradient divided by how often its index occurs.
    at::Tensor counts = at::zeros({num_weights, 1}, idx.options().dtype(at::kInt));
    add_rows(counts, idx, at::ones({idx.numel(), 1}, counts.options()), padding_idx);
    at::Tensor per_sample = at::empty({0}, counts.options());
    index_select_out(counts, 0, idx, per_sample);
    grad = at::div(grad, per_sample);
  }
  add_rows(grad_weight, idx, grad.contiguous(), padding_idx);
  return grad_weight;
}

// Rows of `self` that `indices` names, scaled down to norm max_norm where their
// norm is larger (F.embedding's max_norm). A gathered copy is scaled and
// written back, so an index that repeats writes the same row twice instead of
// scaling it twice; ATen's CPU kernel sorts the indices to visit each once.
at::Tensor& embedding_renorm_(at::Tensor& self, const at::Tensor& indices, double max_norm,
                              double norm_type) {
  TORCH_CHECK(self.dim() == 2, "embedding_renorm_: expected a 2-D weight, but got ", self.dim(),
              "-D");
  TORCH_CHECK(indices.scalar_type() == at::kLong || indices.scalar_type() == at::kInt,
              "embedding_renorm_: expected indices of type Long or Int, but got ",
              indices.scalar_type());
  if (indices.numel() == 0) return self;
  at::Tensor idx = indices.reshape({-1});
  at::Tensor rows = self.index_select(0, idx);
  // 16-bit rows are measured and scaled in float32, as CUDA's kernel does.
  c10::ScalarType acc = self.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
  at::Tensor norms =
      at::linalg_vector_norm(rows, norm_type, at::IntArrayRef{1}, /*keepdim=*/true, acc);
  at::Tensor scale = at::where(norms > max_norm, max_norm / (norms + 1e-7), at::ones_like(norms));
  self.index_put_({idx}, (rows.to(acc) * scale).to(self.scalar_type()));
  return self;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("index_select", index_select);
  m.impl("index_select.out", index_select_out);
  m.impl("embedding_dense_backward", embedding_dense_backward);
  m.impl("embedding_renorm_", embedding_renorm_);
}

}  // namespace torchvulkan
