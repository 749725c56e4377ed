#include "aten/ops/sort/network.h"

#include <ATen/TensorIterator.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>

#include <bit>
#include <string>
#include <utility>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan::sort {
namespace {

// Mirrors shaders/sort/common.glsl.
constexpr int64_t kTile = 2048;

struct TileArgs {
  uint64_t keys_in, positions_in, keys_out, positions_out;
  uint64_t rows, n_in, n_out;
  uint32_t segment, keep;
};

struct MergeArgs {
  uint64_t keys_in, positions_in, keys_out, positions_out;
  uint64_t rows, n;
  uint32_t log_run;
};

const rt::Kernel& kernel(rt::Device& dev, const char* family, const at::Tensor& keys) {
  return dev.pipelines().get(std::string(family) + "." + std::to_string(keys.element_size()));
}

int log2_ceil(int64_t n) {
  return std::bit_width(static_cast<uint64_t>(n - 1));
}

// A tile pass (see shaders/sort/tile.comp) from rows of n_in pairs to rows of n_out.
void tile(const at::Tensor& keys_in, const at::Tensor& positions_in, const at::Tensor& keys_out,
          const at::Tensor& positions_out, int64_t n_in, int64_t n_out, int64_t segment,
          int64_t keep) {
  int64_t rows = keys_in.size(0);
  rt::Device& dev = device_for(keys_in);
  const rt::Kernel& k = kernel(dev, "sort_tile", keys_in);
  TileArgs args{
      address_of(keys_in),          address_of(positions_in),       address_of(keys_out),
      address_of(positions_out),    static_cast<uint64_t>(rows),    static_cast<uint64_t>(n_in),
      static_cast<uint64_t>(n_out), static_cast<uint32_t>(segment), static_cast<uint32_t>(keep)};
  std::vector<rt::Access> accesses = {span_of(keys_in, false), span_of(keys_out, true),
                                      span_of(positions_out, true)};
  if (positions_in.defined()) accesses.push_back(span_of(positions_in, false));
  int64_t segments = rows * ((n_in + segment - 1) / segment);
  int64_t groups = (segments + kTile / segment - 1) / (kTile / segment);
  dev.stream().dispatch(k, &args, sizeof(args), nullptr, 0,
                        static_cast<uint64_t>(groups) * k.workgroup_size, accesses);
}

// One merge pass (see shaders/sort/merge.comp): sorted runs of 2^log_run
// of (keys, positions) into sorted runs of twice that in (keys_out, positions_out).
void merge(const at::Tensor& keys, const at::Tensor& positions, const at::Tensor& keys_out,
           const at::Tensor& positions_out, int log_run) {
  int64_t rows = keys.size(0), n = keys.size(1);
  rt::Device& dev = device_for(keys);
  const rt::Kernel& k = kernel(dev, "sort_merge", keys);
  MergeArgs args{address_of(keys),
                 address_of(positions),
                 address_of(keys_out),
                 address_of(positions_out),
                 static_cast<uint64_t>(rows),
                 static_cast<uint64_t>(n),
                 static_cast<uint32_t>(log_run)};
  std::vector<rt::Access> accesses = {span_of(keys, false), span_of(positions, false),
                                      span_of(keys_out, true), span_of(positions_out, true)};
  dev.stream().dispatch(k, &args, sizeof(args), nullptr, 0, static_cast<uint64_t>(rows * n),
                        accesses);
}

// The positions of each row of `keys` sorted: tiles of kTile first, then
// merge passes that double the sorted runs until they span the row.
at::Tensor sort_rows(const at::Tensor& keys) {
  int64_t n = keys.size(1);
  at::Tensor positions = at::empty(keys.sizes(), keys.options().dtype(at::kInt));
  int64_t segment = std::min<int64_t>(kTile, int64_t{1} << log2_ceil(n));
  tile(keys, {}, keys, positions, n, n, segment, segment);
  if (n <= kTile) return positions;
  at::Tensor keys_in = keys, positions_in = positions;
  at::Tensor keys_out = at::empty_like(keys), positions_out = at::empty_like(positions);
  for (int log_run = std::countr_zero(static_cast<uint64_t>(kTile)); (int64_t{1} << log_run) < n;
       ++log_run) {
    merge(keys_in, positions_in, keys_out, positions_out, log_run);
    std::swap(keys_in, keys_out);
    std::swap(positions_in, positions_out);
  }
  return positions_in;
}

}  // namespace

at::Tensor keys(const at::Tensor& x, bool descending) {
  at::Tensor out =
      at::empty(x.sizes(), x.options().dtype(x.element_size() == 8 ? at::kLong : at::kInt));
  if (x.numel() == 0) return out;
  auto iter = at::TensorIteratorConfig()
                  .add_output(out)
                  .add_const_input(x)
                  .check_all_same_dtype(false)
                  .resize_outputs(false)
                  .build();
  launch_elementwise(std::string("sort.key.") + dtype_name(x.scalar_type()), iter,
                     {descending ? 1u : 0u});
  return out;
}

at::Tensor smallest(const at::Tensor& keys, int64_t count) {
  int64_t rows = keys.size(0), n = keys.size(1);
  TORCH_CHECK(n < INT32_MAX, "torchvulkan: sort rows hold at most 2^31 - 1 elements, got ", n);
  auto options = keys.options().dtype(at::kInt);
  if (rows == 0 || count == 0) return at::empty({rows, count}, options);
  int64_t keep = int64_t{1} << log2_ceil(count);
  if (keep * 4 > kTile || count == n) {
    at::Tensor positions = sort_rows(keys);
    return count == n ? positions : positions.narrow(1, 0, count);
  }
  // Few of many: tile passes that keep each tile's smallest, until one tile holds the rest.
  at::Tensor current = keys, positions;
  while (true) {
    int64_t segment = std::min<int64_t>(kTile, int64_t{1} << log2_ceil(n));
    int64_t kept = std::min(keep, segment);
    int64_t segments = (n + segment - 1) / segment;
    int64_t n_out = (segments - 1) * kept + std::min(kept, n - (segments - 1) * segment);
    at::Tensor next_keys = at::empty({rows, n_out}, keys.options());
    at::Tensor next_positions = at::empty({rows, n_out}, options);
    tile(current, positions, next_keys, next_positions, n, n_out, segment, kept);
    current = next_keys;
    positions = next_positions;
    n = n_out;
    if (segments == 1) break;
  }
  return positions.narrow(1, 0, count);
}

}  // namespace torchvulkan::sort
