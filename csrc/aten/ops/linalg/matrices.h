#pragma once
// What the factorization kernels' launchers share (lu.cpp, ldl.cpp,
// cholesky.cpp, qr.cpp, jacobi.cpp), and the batch broadcast distance.cpp
// uses too.
#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan::linalg {

// `t` ([..., rows, cols]) as [batches, rows, cols]: a view where its batch
// dims collapse, else a copy to be written back (`copied`).
inline at::Tensor flat_batches(const at::Tensor& t, bool& copied) {
  at::Tensor flat = t.dim() == 2 ? t.unsqueeze(0) : t.flatten(0, -3);
  copied = !flat.is_alias_of(t);
  return flat;
}

// `t` reshaped to `shape` and contiguous, as the kernels write their int32
// outputs (pivots, info): a view where it is one, else a copy to be written
// back (`copied`; an out= tensor may have any strides).
inline at::Tensor contiguous_flat(const at::Tensor& t, at::IntArrayRef shape, bool& copied) {
  at::Tensor flat = t.reshape(shape);
  copied = !flat.is_alias_of(t) || !flat.is_contiguous();
  return copied ? flat.contiguous() : flat;
}

// `t` ([..., rows, cols]) with its batch dims broadcast to `batch`, as
// [batches, rows, cols].
inline at::Tensor batched(const at::Tensor& t, at::IntArrayRef batch) {
  std::vector<int64_t> sizes(batch.begin(), batch.end());
  sizes.insert(sizes.end(), {t.size(-2), t.size(-1)});
  return t.expand(sizes).reshape({-1, t.size(-2), t.size(-1)});
}

// Pivots ([..., k]) broadcast likewise, as contiguous [batches, k] rows.
inline at::Tensor batched_pivots(const at::Tensor& pivots, at::IntArrayRef batch) {
  std::vector<int64_t> sizes(batch.begin(), batch.end());
  sizes.push_back(pivots.size(-1));
  return pivots.expand(sizes).reshape({-1, pivots.size(-1)}).contiguous();
}

// The dtypes the factorizations compute in, as the CPU's LAPACK (real ones).
inline void check_dtype(const at::Tensor& A, const char* name) {
  TORCH_CHECK(A.scalar_type() == at::kFloat || A.scalar_type() == at::kDouble, name,
              ": torchvulkan computes float32 and float64 matrices; got ", A.scalar_type());
}

// Runs "<kernel>.<dtype of on>" with `args` as its push constants in
// `groups` workgroups: one per matrix (per right-hand column for the solves).
template <class Args>
void launch_groups(const std::string& kernel, const at::Tensor& on, Args args, uint64_t groups,
                   const std::vector<rt::Access>& accesses) {
  rt::Device& dev = device_for(on);
  const rt::Kernel& k = dev.pipelines().get(kernel + "." + dtype_name(on.scalar_type()));
  dev.stream().dispatch(k, &args, sizeof(args), nullptr, 0, groups * k.workgroup_size, accesses);
}

}  // namespace torchvulkan::linalg
