#pragma once
#include <ATen/TensorIterator.h>
#include <ATen/core/Tensor.h>

#include <string_view>
#include <vector>

namespace torchvulkan {

// out = op over `dims` of self ("sum", "mean", "prod", "amax", "amin", "any",
// "all", "count_nonzero"); an empty `dims` reduces everything. `out` is
// already shaped, with the reduced dims kept as 1 or removed, and has the
// result dtype.
void reduce(const at::Tensor& self, at::OptionalIntArrayRef dims, const at::Tensor& out,
            std::string_view op);

// The same over a reduction TensorIterator built by ATen (make_reduction, as
// its DispatchStubs receive it): its input has the output's dtype. `scalar`
// is the norm's order p ("norm").
void reduce(const at::TensorIteratorBase& iter, std::string_view op, double scalar = 0);

// var (or std when take_sqrt) over a reduction iterator with one output, or
// two for var_mean / std_mean (the second takes the mean).
void welford(const at::TensorIteratorBase& iter, double correction, bool take_sqrt);

// The kernels' description of a reduction of `input` over `dims` into `out`
// (see shaders/reduce/reduce.comp for the words): kept dims (one output each)
// and reduced dims, innermost first, coalesced. `sort_reduced` orders the
// reduced dims by stride (fastest reads), which argmax must not do: its index
// counts along the dims in order.
struct ReduceLayout {
  std::vector<int64_t> meta;
  int64_t outputs = 1, reduce_size = 1;
  int64_t kept_stride = 0, reduced_stride = 0;  // input strides of the innermost kept / reduced dim
  int64_t kept_size = 1;                        // size of the innermost kept dim
  int64_t n_reduced = 0;
  bool reduced_strides_16 = true;  // every reduced stride a multiple of 16 bytes
  bool has_kept = false, has_reduced = false;
};
ReduceLayout reduce_layout(const at::Tensor& input, at::OptionalIntArrayRef dims,
                           const at::Tensor& out, bool sort_reduced, int64_t parts = 1);

}  // namespace torchvulkan
