#pragma once
// The sort of shaders/sort: rows are sorted as (key, position) pairs, keys
// being order-preserving unsigned integers, so one sort serves every dtype
// and ties keep their positions' order (stable). A bitonic network sorts
// tiles of 2048 in shared memory; merge passes double the sorted runs.
#include <ATen/core/Tensor.h>

namespace torchvulkan::sort {

// The sort keys of `x` along its last dim: a contiguous tensor of x's sizes
// holding 32-bit keys (int32), or 64-bit keys (int64) for 8-byte dtypes.
at::Tensor keys(const at::Tensor& x, bool descending);

// The positions (int32, contiguous [rows, count]) of the `count` smallest
// keys of each row of `keys` ([rows, n], contiguous), in ascending order of
// (key, position); `count` <= n. `keys` may be overwritten.
at::Tensor smallest(const at::Tensor& keys, int64_t count);

}  // namespace torchvulkan::sort
