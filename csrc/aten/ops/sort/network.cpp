#include "aten/ops/sort/network.h"

#include <ATen/TensorIterator.h>
#include <ATen/ops/empty.h>

#include <bit>
#include <string>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan::sort {
namespace {

// Mirrors shaders/sort/common.glsl.
constexpr int64_t kTile = 2048;

struct TileArgs {
  uint64_t keys_in, positions_in, keys_out, positions_out;
  uint64_t rows, n_in, n_out;
  uint32_t segment, keep, merge;
};

struct StepArgs {
  uint64_t keys, positions;
  uint64_t rows, n;
  uint32_t log_padded, top, levels, mirror;
};
constexpr int kMaxLevels = 3;  // steps per global pass (shaders/sort/step.comp)

uint64_t address(const at::Tensor& t) {
  return t.defined() ? reinterpret_cast<uint64_t>(t.const_data_ptr()) : 0;
}

std::string kernel(const char* family, const at::Tensor& keys) {
  return std::string(family) + "." + std::to_string(keys.element_size());
}

// A tile pass (see shaders/sort/tile.comp) from rows of n_in pairs to rows of n_out.
void tile(const at::Tensor& keys_in, const at::Tensor& positions_in, const at::Tensor& keys_out,
          const at::Tensor& positions_out, int64_t n_in, int64_t n_out, int64_t segment,
          int64_t keep, bool merge) {
  int64_t rows = keys_in.size(0);
  rt::Device& dev = device_for(keys_in);
  const rt::Kernel& k = dev.pipelines().get(kernel("sort_tile", keys_in));
  TileArgs args{address(keys_in),
                address(positions_in),
                address(keys_out),
                address(positions_out),
                static_cast<uint64_t>(rows),
                static_cast<uint64_t>(n_in),
                static_cast<uint64_t>(n_out),
                static_cast<uint32_t>(segment),
                static_cast<uint32_t>(keep),
                merge ? 1u : 0u};
  std::vector<rt::Access> accesses = {span_of(keys_in, false), span_of(keys_out, true),
                                      span_of(positions_out, true)};
  if (positions_in.defined()) accesses.push_back(span_of(positions_in, false));
  int64_t segments = rows * ((n_in + segment - 1) / segment);
  int64_t groups = (segments + kTile / segment - 1) / (kTile / segment);
  dev.stream().dispatch(k, &args, sizeof(args), nullptr, 0,
                        static_cast<uint64_t>(groups) * k.workgroup_size, accesses);
}

// `levels` global compare-exchange steps of bit positions top .. top - levels + 1
// (see shaders/sort/step.comp), the first mirrored when `mirror`.
void steps(const at::Tensor& keys, const at::Tensor& positions, int log_padded, int top, int levels,
           bool mirror) {
  int64_t rows = keys.size(0), n = keys.size(1);
  rt::Device& dev = device_for(keys);
  const rt::Kernel& k = dev.pipelines().get(kernel("sort_step", keys));
  StepArgs args{address(keys),
                address(positions),
                static_cast<uint64_t>(rows),
                static_cast<uint64_t>(n),
                static_cast<uint32_t>(log_padded),
                static_cast<uint32_t>(top),
                static_cast<uint32_t>(levels),
                mirror ? 1u : 0u};
  std::vector<rt::Access> accesses = {span_of(keys, true), span_of(positions, true)};
  dev.stream().dispatch(k, &args, sizeof(args), nullptr, 0,
                        static_cast<uint64_t>(rows) << (log_padded - levels), accesses);
}

int log2_ceil(int64_t n) {
  return std::bit_width(static_cast<uint64_t>(n - 1));
}

// Sorts each row of (keys, positions) in place: tiles of kTile first, then
// the bitonic merge stages of blocks 2 kTile .. the padded row, each its
// steps of distance >= kTile in global passes of up to kMaxLevels steps and
// a tile pass for the distances below.
void sort_rows(const at::Tensor& keys, const at::Tensor& positions) {
  int64_t n = keys.size(1);
  int64_t segment = std::min<int64_t>(kTile, int64_t{1} << log2_ceil(n));
  tile(keys, {}, keys, positions, n, n, segment, segment, false);
  int log_padded = log2_ceil(n), log_tile = std::countr_zero(static_cast<uint64_t>(kTile));
  for (int log_block = log_tile + 1; log_block <= log_padded; ++log_block) {
    for (int top = log_block - 1; top >= log_tile;) {
      int levels = std::min(kMaxLevels, top - log_tile + 1);
      steps(keys, positions, log_padded, top, levels, top == log_block - 1);
      top -= levels;
    }
    tile(keys, positions, keys, positions, n, n, kTile, kTile, true);
  }
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
  // Few of many: tile passes that keep each tile's smallest, until one tile holds the rest.
  int64_t keep = int64_t{1} << log2_ceil(count);
  if (keep * 4 > kTile || count == n) {
    at::Tensor positions = at::empty({rows, n}, options);
    sort_rows(keys, positions);
    return count == n ? positions : positions.narrow(1, 0, count);
  }
  at::Tensor current = keys, positions;
  while (true) {
    int64_t segment = std::min<int64_t>(kTile, int64_t{1} << log2_ceil(n));
    int64_t kept = std::min(keep, segment);
    int64_t segments = (n + segment - 1) / segment;
    int64_t n_out = (segments - 1) * kept + std::min(kept, n - (segments - 1) * segment);
    at::Tensor next_keys = at::empty({rows, n_out}, keys.options());
    at::Tensor next_positions = at::empty({rows, n_out}, options);
    tile(current, positions, next_keys, next_positions, n, n_out, segment, kept, false);
    current = next_keys;
    positions = next_positions;
    n = n_out;
    if (segments == 1) break;
  }
  return positions.narrow(1, 0, count);
}

}  // namespace torchvulkan::sort
