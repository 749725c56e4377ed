// Gather, scatter and advanced indexing as ATen's DispatchStub kernels for the
// vulkan device: ATen's own native functions check the arguments, size the
// outputs and handle the special cases (include_self, mean, masks, ...), as
// they do for CUDA, and call these kernels for the element work.
#include <ATen/ExpandUtils.h>
#include <ATen/native/IndexKernel.h>
#include <ATen/native/IndexingUtils.h>
#include <ATen/native/ReductionType.h>
#include <ATen/native/TensorAdvancedIndexing.h>
#include <ATen/native/TensorIterator.h>
#include <ATen/ops/_index_put_impl_native.h>
#include <ATen/ops/gather_native.h>
#include <ATen/ops/index_native.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/scatter_add_native.h>
#include <ATen/ops/scatter_native.h>
#include <ATen/ops/scatter_reduce_native.h>
#include <ATen/ops/take_native.h>
#include <ATen/ops/flip_native.h>
#include <torch/library.h>

#include "aten/launch.h"
#include "aten/ops/index/kernels.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

using index::Reduce;

// `t` with the sizes of `index` and its own strides, or stride 0 along `dim`
// when the index moves that dimension (0-dim tensors count as 1-dim, as
// ATen's scatter/gather checks treat them).
at::Tensor along(const at::Tensor& t, const at::Tensor& index, int64_t dim, bool indexed) {
  if (index.dim() == 0) return t.as_strided({}, {});
  std::vector<int64_t> strides = t.dim() ? t.strides().vec() : std::vector<int64_t>{1};
  if (indexed) strides[dim] = 0;
  return t.as_strided(index.sizes(), strides);
}

int64_t dim_stride(const at::Tensor& t, int64_t dim) {
  return (t.dim() ? t.stride(dim) : 1) * static_cast<int64_t>(t.element_size());
}
int64_t dim_size(const at::Tensor& t, int64_t dim) { return t.dim() ? t.size(dim) : 1; }

// The kernels read int64 indices; ATen also accepts int32 ones here.
at::Tensor as_long(const at::Tensor& index) { return index.to(at::kLong); }

void gather_kernel(const at::Tensor& result, const at::Tensor& self, int64_t dim, const at::Tensor& index) {
  if (index.numel() == 0) return;
  auto iter = index::config().add_output(result).add_owned_const_input(along(self, index, dim, true)).add_owned_const_input(as_long(index)).build();
  index::gather(iter, dim_stride(self, dim), dim_size(self, dim), self);
}

void scatter_kernel(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& src) {
  if (index.numel() == 0) return;
  auto iter = index::config()
                  .add_owned_output(along(self, index, dim, true))
                  .add_owned_const_input(along(src, index, dim, false))
                  .add_owned_const_input(as_long(index))
                  .build();
  index::scatter(iter, dim_stride(self, dim), dim_size(self, dim), self);
}

at::Tensor filled(const at::Tensor& like, const c10::Scalar& value) {
  return at::scalar_tensor(value, like.options());
}

void scatter_fill_kernel(const at::Tensor& self, int64_t dim, const at::Tensor& index, const c10::Scalar& value) {
  scatter_kernel(self, dim, index, filled(self, value).expand(index.sizes()));
}

Reduce reduce_of(const at::native::ReductionType& type) {
  switch (type) {
    case at::native::ReductionType::PROD:
      return Reduce::prod;
    case at::native::ReductionType::MAX:
      return Reduce::amax;
    case at::native::ReductionType::MIN:
      return Reduce::amin;
    default:  // SUM, and MEAN, which ATen divides by the counts afterwards
      return Reduce::sum;
  }
}

void scatter_reduce_kernel(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& src,
                           const at::native::ReductionType& reduce) {
  if (index.numel() == 0) return;
  auto iter = index::config()
                  .add_owned_output(along(self, index, dim, true))
                  .add_owned_const_input(along(src.to(self.scalar_type()), index, dim, false))
                  .add_owned_const_input(as_long(index))
                  .build();
  index::scatter_reduce(iter, reduce_of(reduce), dim_stride(self, dim), dim_size(self, dim), self);
}

void scatter_add_kernel(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& src) {
  scatter_reduce_kernel(self, dim, index, src, at::native::ReductionType::SUM);
}

void scatter_scalar_reduce_kernel(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                                  const c10::Scalar& value, const at::native::ReductionType& reduce) {
  scatter_reduce_kernel(self, dim, index, filled(self, value).expand(index.sizes()), reduce);
}

// index / index_put iterators: operand 0 the output (index) or the restrided
// self (index_put), 1 the source or values, 2... the broadcast indices.
std::vector<at::Tensor> indices_of(const at::TensorIteratorBase& iter) {
  std::vector<at::Tensor> indices;
  for (int k = 2; k < iter.ntensors(); ++k) indices.push_back(iter.tensor(k));
  return indices;
}

// The whole tensor behind an operand restrided for indexing: its span widened
// by the indexed dims.
at::Tensor whole(const at::Tensor& restrided, at::IntArrayRef sizes, at::IntArrayRef strides) {
  std::vector<int64_t> shape = restrided.sizes().vec(), step = restrided.strides().vec();
  for (size_t k = 0; k < sizes.size(); ++k) {
    shape.push_back(sizes[k]);
    step.push_back(strides[k] / static_cast<int64_t>(restrided.element_size()));
  }
  return restrided.as_strided(shape, step, restrided.storage_offset());
}

void index_kernel(at::TensorIteratorBase& iter, at::IntArrayRef sizes, at::IntArrayRef strides) {
  if (iter.numel() == 0) return;
  at::Tensor out = iter.tensor(0), src = iter.tensor(1);
  at::Tensor source = whole(src, sizes, strides);
  if (sizes.size() == 1) {
    index::gather(iter, strides[0], sizes[0], source, index::Negative::from_end);
    return;
  }
  at::Tensor offsets = index::byte_offsets(out.sizes(), indices_of(iter), sizes, strides);
  auto gather = index::config().add_output(out).add_const_input(src).add_const_input(offsets).build();
  index::gather(gather, 1, 0, source);
}

void index_put_kernel(at::TensorIterator& iter, at::IntArrayRef sizes, at::IntArrayRef strides, bool accumulate) {
  if (iter.numel() == 0) return;
  at::Tensor dst = iter.tensor(0), values = iter.tensor(1);
  at::Tensor dest = whole(dst, sizes, strides);
  auto run = [&](const at::TensorIteratorBase& it, int64_t stride, int64_t size) {
    if (accumulate) {
      index::scatter_reduce(it, Reduce::sum, stride, size, dest, std::nullopt, index::Negative::from_end);
    } else {
      index::scatter(it, stride, size, dest, index::Negative::from_end);
    }
  };
  if (sizes.size() == 1) {
    run(iter, strides[0], sizes[0]);
    return;
  }
  at::Tensor offsets = index::byte_offsets(dst.sizes(), indices_of(iter), sizes, strides);
  auto put = index::config().add_output(dst).add_const_input(values).add_const_input(offsets).build();
  run(put, 1, 0);
}

// index_put_ with accumulate (or deterministic): ATen sends it here (the path CUDA takes to
// sort the indices). The atomic scatter-add needs no sort, so this only lays
// the problem out as ATen's make_info does: masks become indices, indices
// broadcast, indexed dims move to the front unless adjacent, and self is
// restrided to the shape of the result with stride 0 along the indexed dims.
void index_put_accumulate_kernel(at::Tensor& self, const c10::List<std::optional<at::Tensor>>& list,
                                 const at::Tensor& values, bool accumulate, bool unsafe) {
  std::vector<at::Tensor> indices = at::expand_outplace(at::native::expandTensors(self, list, true));
  indices.resize(self.dim());
  at::Tensor src = self;
  if (!at::native::hasContiguousSubspace(indices)) std::tie(src, indices) = at::native::transposeToFront(self, indices);
  std::vector<int64_t> shape, strides, sizes, byte_strides;
  std::vector<at::Tensor> used;
  at::IntArrayRef replacement;
  int64_t before = 0, after = 0;
  for (int64_t d = 0; d < src.dim(); ++d) {
    if (indices[d].defined()) {
      sizes.push_back(src.size(d));
      byte_strides.push_back(src.stride(d) * static_cast<int64_t>(src.element_size()));
      used.push_back(indices[d].to(at::kLong));
      replacement = indices[d].sizes();
    } else {
      (used.empty() ? before : after) += 1;
    }
  }
  for (int64_t d = 0; d < before; ++d) shape.push_back(src.size(d)), strides.push_back(src.stride(d));
  for (int64_t s : replacement) shape.push_back(s), strides.push_back(0);
  for (int64_t d = src.dim() - after; d < src.dim(); ++d) shape.push_back(src.size(d)), strides.push_back(src.stride(d));
  // Each index viewed with ones around it, so it broadcasts against shape.
  std::vector<int64_t> index_shape(before, 1);
  index_shape.insert(index_shape.end(), replacement.begin(), replacement.end());
  index_shape.resize(shape.size(), 1);
  for (at::Tensor& t : used) t = t.view(index_shape);
  at::Tensor dst = src.as_strided(shape, strides);
  if (dst.numel() == 0) return;
  at::Tensor offsets = index::byte_offsets(shape, used, sizes, byte_strides);
  auto iter = index::config()
                  .add_output(dst)
                  .add_owned_const_input(values.to(self.scalar_type()).expand(shape))
                  .add_const_input(offsets)
                  .build();
  if (accumulate) {
    index::scatter_reduce(iter, Reduce::sum, 1, 0, self);
  } else {
    index::scatter(iter, 1, 0, self);
  }
}

// take: out = flat(input)[index].
void take_kernel(at::TensorIterator& iter, const at::TensorBase& input_base) {
  at::Tensor input = at::Tensor(input_base).contiguous();
  at::Tensor out = iter.tensor(0);
  std::vector<int64_t> zeros(out.dim(), 0);
  auto it = index::config()
                .add_output(out)
                .add_owned_const_input(input.as_strided(out.sizes(), zeros))
                .add_const_input(iter.tensor(1))
                .build();
  index::gather(it, static_cast<int64_t>(input.element_size()), input.numel(), input, index::Negative::from_end);
}

// flip: ATen's iterator already reads the input with negated strides.
void flip_kernel(at::TensorIterator& iter, bool quantized) {
  TORCH_CHECK(!quantized, "torchvulkan: quantized flip is not supported");
  launch_elementwise("copy_bits." + std::to_string(iter.element_size(0)), iter);
}

// The structured ops: ATen's meta and impl (which calls the stubs above) with
// vulkan outputs.
namespace n = at::native;

at::Tensor& gather_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, bool sparse_grad,
                       at::Tensor& out) {
  Out<n::structured_gather_out> op(out);
  op.meta(self, dim, index, sparse_grad);
  op.impl(self, dim, index, sparse_grad, out);
  return out;
}

at::Tensor& scatter_src_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& src,
                            at::Tensor& out) {
  Out<n::structured_scatter_src_out> op(out);
  op.meta(self, dim, index, src);
  op.impl(self, dim, index, src, out);
  return out;
}

at::Tensor& scatter_value_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                              const c10::Scalar& value, at::Tensor& out) {
  Out<n::structured_scatter_value_out> op(out);
  op.meta(self, dim, index, value);
  op.impl(self, dim, index, value, out);
  return out;
}

at::Tensor& scatter_reduce_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& src,
                               c10::string_view reduce, at::Tensor& out) {
  Out<n::structured_scatter_reduce_out> op(out);
  op.meta(self, dim, index, src, reduce);
  op.impl(self, dim, index, src, reduce, out);
  return out;
}

at::Tensor& scatter_value_reduce_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                                     const c10::Scalar& value, c10::string_view reduce, at::Tensor& out) {
  Out<n::structured_scatter_value_reduce_out> op(out);
  op.meta(self, dim, index, value, reduce);
  op.impl(self, dim, index, value, reduce, out);
  return out;
}

at::Tensor& scatter_add_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& src,
                            at::Tensor& out) {
  Out<n::structured_scatter_add> op(out);
  op.meta(self, dim, index, src);
  op.impl(self, dim, index, src, out);
  return out;
}

at::Tensor& scatter_reduce_two_out(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                                   const at::Tensor& src, c10::string_view reduce, bool include_self,
                                   at::Tensor& out) {
  Out<n::structured_scatter_reduce_two> op(out);
  op.meta(self, dim, index, src, reduce, include_self);
  op.impl(self, dim, index, src, reduce, include_self, out);
  return out;
}

at::Tensor& index_out(const at::Tensor& self, const c10::List<std::optional<at::Tensor>>& indices, at::Tensor& out) {
  Out<n::structured_index_out> op(out);
  auto precomputed = op.meta(self, indices);
  op.impl(self, precomputed.sizes, precomputed.strides, out);
  return out;
}

}  // namespace
}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(gather_stub, &torchvulkan::gather_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(scatter_stub, &torchvulkan::scatter_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(scatter_fill_stub, &torchvulkan::scatter_fill_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(scatter_add_stub, &torchvulkan::scatter_add_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(scatter_reduce_stub, &torchvulkan::scatter_reduce_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(scatter_scalar_reduce_stub, &torchvulkan::scatter_scalar_reduce_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(scatter_reduce_two_stub, &torchvulkan::scatter_reduce_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(index_stub, &torchvulkan::index_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(index_put_stub, &torchvulkan::index_put_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(index_put_with_sort_stub, &torchvulkan::index_put_accumulate_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(take_stub, &torchvulkan::take_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(flip_stub, &torchvulkan::flip_kernel)
}  // namespace at::native

namespace torchvulkan {

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("gather.out", gather_out);
  m.impl("scatter.src_out", scatter_src_out);
  m.impl("scatter.value_out", scatter_value_out);
  m.impl("scatter.reduce_out", scatter_reduce_out);
  m.impl("scatter.value_reduce_out", scatter_value_reduce_out);
  m.impl("scatter_add.out", scatter_add_out);
  m.impl("scatter_reduce.two_out", scatter_reduce_two_out);
  m.impl("index.Tensor_out", index_out);
  m.impl("_index_put_impl_", at::native::_index_put_impl_);
  m.impl("take", at::native::take);
  m.impl("take.out", at::native::take_out);
  m.impl("flip", at::native::flip);
}

}  // namespace torchvulkan
