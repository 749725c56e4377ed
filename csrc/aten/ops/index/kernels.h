#pragma once
// Launches of the shaders/index kernels. Each runs over an elementwise
// iterator whose operands are (destination, source, int64 index); the index
// moves one operand's address by index * stride bytes, after wrapping
// negative indices against `size` (size 0: the indices are already offsets).
#include <ATen/TensorIterator.h>

#include <optional>

namespace torchvulkan::index {

enum class Reduce { sum, prod, amax, amin };

// How the kernels take an index: in [0, size) as gather, scatter and
// index_select do, or from the end when negative as advanced indexing and
// take do. Either way one out of range is skipped and reported at the next
// synchronization (shaders/common/fault.glsl).
enum class Negative { out_of_range, from_end };

// out = src[index]: iterator (out, src restrided with stride 0 along the
// indexed dims, index); `source` is the whole tensor src views.
void gather(const at::TensorIteratorBase& iter, int64_t stride, int64_t size,
            const at::Tensor& source, Negative negative = Negative::out_of_range);
// dst[index] = src: iterator (dst restrided, src, index); `dest` is the whole tensor dst views.
void scatter(const at::TensorIteratorBase& iter, int64_t stride, int64_t size,
             const at::Tensor& dest, Negative negative = Negative::out_of_range);
// dst[index] = reduce(dst[index], src), atomically; updates whose index equals `skip` are dropped.
void scatter_reduce(const at::TensorIteratorBase& iter, Reduce op, int64_t stride, int64_t size,
                    const at::Tensor& dest, std::optional<int64_t> skip = std::nullopt,
                    Negative negative = Negative::out_of_range);

// The byte offsets of several index tensors into a tensor whose indexed dims
// have `sizes` and byte `strides`: sum_k wrap(indices[k]) * strides[k], in
// the shape `shape` the indices broadcast to (negative where out of range).
at::Tensor byte_offsets(at::IntArrayRef shape, const std::vector<at::Tensor>& indices,
                        at::IntArrayRef sizes, at::IntArrayRef strides);

// A config for these iterators: operands of different dtypes, outputs that
// overlap (restrided with stride 0) and are never resized.
at::TensorIteratorConfig config();

}  // namespace torchvulkan::index
