// tril_indices and triu_indices: the [2, N] coordinates of a row x col
// matrix's lower (upper) triangle from diagonal `offset`, in row-major
// order, computed on the device from each row's first column and count:
//   tril: row r holds columns [0, clamp(r + offset + 1, 0, col))
//   triu: row r holds columns [clamp(r + offset, 0, col), col)
// Element k lies in the row whose running count first exceeds k
// (searchsorted), at its first column plus k minus the counts before it.
// N comes from the same counts summed on the host, so no value is read
// back.
#include <ATen/TensorOperators.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/searchsorted.h>
#include <ATen/ops/zeros_like.h>
#include <torch/library.h>

#include <algorithm>

namespace torchvulkan {
namespace {

at::Tensor triangle_indices(bool lower, int64_t row, int64_t col, int64_t offset,
                            std::optional<at::ScalarType> dtype, std::optional<at::Layout> layout,
                            std::optional<at::Device> device, std::optional<bool> pin_memory) {
  const char* name = lower ? "tril_indices" : "triu_indices";
  TORCH_CHECK(row >= 0, "row must be non-negative, got", row);
  TORCH_CHECK(col >= 0, "col must be non-negative, got", col);
  TORCH_CHECK(layout.value_or(at::kStrided) == at::kStrided,
              "only support layout=torch.strided, got", layout.value_or(at::kStrided), " for ",
              name);
  auto first = [&](int64_t r) {
    return lower ? int64_t{0} : std::clamp<int64_t>(r + offset, 0, col);
  };
  auto count = [&](int64_t r) {
    return lower ? std::clamp<int64_t>(r + offset + 1, 0, col) : col - first(r);
  };
  int64_t total = 0;
  for (int64_t r = 0; r < row; ++r) total += count(r);
  auto options =
      at::TensorOptions().dtype(dtype.value_or(at::kLong)).device(device).pinned_memory(pin_memory);
  at::Tensor result = at::empty({2, total}, options);
  if (total == 0) return result;
  auto longs = options.dtype(at::kLong).pinned_memory(std::nullopt);
  at::Tensor rows = at::arange(row, longs);
  at::Tensor firsts = lower ? at::zeros_like(rows) : (rows + offset).clamp(0, col);
  at::Tensor counts = lower ? (rows + offset + 1).clamp(0, col) : col - firsts;
  at::Tensor ends = counts.cumsum(0);
  at::Tensor k = at::arange(total, longs);
  at::Tensor r = at::searchsorted(ends, k, /*out_int32=*/false, /*right=*/true);
  result.select(0, 0).copy_(r);
  result.select(0, 1).copy_(firsts.index_select(0, r) + k - (ends - counts).index_select(0, r));
  return result;
}

at::Tensor tril_indices(int64_t row, int64_t col, int64_t offset,
                        std::optional<at::ScalarType> dtype, std::optional<at::Layout> layout,
                        std::optional<at::Device> device, std::optional<bool> pin_memory) {
  return triangle_indices(true, row, col, offset, dtype, layout, device, pin_memory);
}

at::Tensor triu_indices(int64_t row, int64_t col, int64_t offset,
                        std::optional<at::ScalarType> dtype, std::optional<at::Layout> layout,
                        std::optional<at::Device> device, std::optional<bool> pin_memory) {
  return triangle_indices(false, row, col, offset, dtype, layout, device, pin_memory);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("tril_indices", tril_indices);
  m.impl("triu_indices", triu_indices);
}

}  // namespace torchvulkan
