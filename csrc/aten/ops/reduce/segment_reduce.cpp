// torch.segment_reduce and its gradient: ATen's own ops check the arguments
// (lengths or offsets against the data, the axis, unsafe) and make the
// operands contiguous, then call these through their DispatchStubs. Lengths
// become offsets here (a cumulative sum), so one kernel
// (shaders/reduce/segment_reduce.comp) serves both forms.
#include <ATen/native/SegmentReduce.h>
#include <ATen/ops/_segment_reduce_backward_native.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/segment_reduce_native.h>
#include <ATen/ops/zeros.h>
#include <ATen/ops/zeros_like.h>
#include <torch/library.h>

#include <optional>
#include <string>
#include <vector>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan {
namespace {

using at::native::ReductionType;

at::Tensor offsets_of_lengths(const at::Tensor& lengths) {
  at::Tensor ends = lengths.cumsum(-1, at::kLong);
  auto sizes = lengths.sizes().vec();
  sizes.back() = 1;
  return at::cat({at::zeros(sizes, ends.options()), ends}, -1);
}

// segment_reduce.<op> over data viewed as [outer, D, inner] and offsets as
// [outer, S + 1] (axis: the offsets' last dim, as ATen's kernels take it).
void launch(const char* op, ReductionType reduction, const at::Tensor& data,
            const at::Tensor& offsets, const std::optional<c10::Scalar>& initial,
            const at::Tensor& out, const at::Tensor& result = {}, const at::Tensor& grad = {}) {
  int64_t axis = offsets.dim() - 1, segments = offsets.size(axis) - 1;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= data.size(d);
  for (int64_t d = axis + 1; d < data.dim(); ++d) inner *= data.size(d);
  int64_t outputs = outer * segments * inner;
  if (outputs == 0) return;
  at::Tensor offsets64 = offsets.to(at::kLong).contiguous();
  bool backward = result.defined();
  std::vector<int64_t> words = {
      int64_t(address_of(data)),
      int64_t(address_of(offsets64)),
      int64_t(address_of(out)),
      backward ? int64_t(address_of(result)) : 0,
      backward ? int64_t(address_of(grad)) : 0,
      outer,
      data.size(axis),
      segments,
      inner,
      static_cast<int64_t>(reduction),
      initial.has_value() ? 1 : 0,
      initial.has_value() ? int64_t(scalar_bits(*initial, data.scalar_type())) : 0};
  std::vector<rt::Access> accesses = {span_of(data, false), span_of(offsets64, false),
                                      span_of(out, true)};
  if (backward) {
    accesses.push_back(span_of(result, false));
    accesses.push_back(span_of(grad, false));
  }
  launch_with_params(device_for(data),
                     std::string("segment_reduce.") + op + "." + dtype_name(data.scalar_type()),
                     words, static_cast<uint64_t>(outputs), accesses);
}

at::Tensor forward_offsets(ReductionType reduction, const at::Tensor& data,
                           const at::Tensor& offsets, int64_t,
                           const std::optional<c10::Scalar>& initial) {
  auto sizes = data.sizes().vec();
  sizes[offsets.dim() - 1] = offsets.size(-1) - 1;
  at::Tensor out = at::empty(sizes, data.options());
  launch("forward", reduction, data, offsets, initial, out);
  return out;
}

at::Tensor forward_lengths(ReductionType reduction, const at::Tensor& data,
                           const at::Tensor& lengths, int64_t axis,
                           const std::optional<c10::Scalar>& initial) {
  return forward_offsets(reduction, data, offsets_of_lengths(lengths), axis, initial);
}

at::Tensor backward_offsets(const at::Tensor& grad, const at::Tensor& result,
                            const at::Tensor& data, ReductionType reduction,
                            const at::Tensor& offsets, int64_t,
                            const std::optional<c10::Scalar>& initial) {
  at::Tensor grad_input = at::zeros_like(data);  // empty segments leave nothing to write
  launch("backward", reduction, data, offsets, initial, grad_input, result, grad);
  return grad_input;
}

at::Tensor backward_lengths(const at::Tensor& grad, const at::Tensor& result,
                            const at::Tensor& data, ReductionType reduction,
                            const at::Tensor& lengths, int64_t axis,
                            const std::optional<c10::Scalar>& initial) {
  return backward_offsets(grad, result, data, reduction, offsets_of_lengths(lengths), axis,
                          initial);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("segment_reduce", at::native::segment_reduce_kernel);
  m.impl("_segment_reduce_backward", at::native::_segment_reduce_backward_kernel);
}

}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(_segment_reduce_lengths_stub, &torchvulkan::forward_lengths)
REGISTER_PRIVATEUSE1_DISPATCH(_segment_reduce_offsets_stub, &torchvulkan::forward_offsets)
REGISTER_PRIVATEUSE1_DISPATCH(_segment_reduce_lengths_backward_stub, &torchvulkan::backward_lengths)
REGISTER_PRIVATEUSE1_DISPATCH(_segment_reduce_offsets_backward_stub, &torchvulkan::backward_offsets)
}  // namespace at::native
