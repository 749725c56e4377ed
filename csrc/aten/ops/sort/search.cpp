// searchsorted and bucketize: ATen's own checks and input preparation
// (BucketizationUtils.h: contiguous operands of one common dtype), then one
// binary search per value (shaders/sort/search.comp).
#include <ATen/TensorIterator.h>
#include <ATen/native/BucketizationUtils.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/empty.h>
#include <torch/library.h>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan {
namespace {

at::Tensor& searchsorted_out(const at::Tensor& sorted_sequence, const at::Tensor& self,
                             bool out_int32, bool right, std::optional<c10::string_view> side,
                             const std::optional<at::Tensor>& sorter_opt, at::Tensor& result) {
  at::Tensor sorter = sorter_opt.value_or(at::Tensor());
  at::native::searchsorted_pre_check(sorted_sequence, self, result, out_int32, right, side, sorter);
  at::native::resize_output(result, self.sizes());
  if (self.numel() == 0) return result;
  at::Tensor input, boundaries, order;
  at::native::searchsorted_maybe_trim_input_tensors(input, boundaries, order, self, sorted_sequence,
                                                    sorter);
  if (!input.defined()) input = self;
  if (!boundaries.defined()) boundaries = sorted_sequence;
  if (!order.defined()) order = sorter;
  TORCH_CHECK(input.scalar_type() != at::kBool, "\"searchsorted\" not implemented for 'Bool'");
  at::Tensor out = result.is_contiguous() ? result : at::empty(result.sizes(), result.options());
  auto iter = at::TensorIteratorConfig()
                  .add_output(out)
                  .add_const_input(input)
                  .check_all_same_dtype(false)
                  .resize_outputs(false)
                  .build();
  bool is_right = side ? *side == "right" : right;
  uint64_t per_row = boundaries.dim() == 1 ? 0 : static_cast<uint64_t>(input.size(-1));
  std::vector<rt::Access> extra = {span_of(boundaries, false)};
  if (order.defined()) extra.push_back(span_of(order, false));
  launch_elementwise(
      std::string("search.bound.") + dtype_name(input.scalar_type()), iter,
      {address_of(boundaries), address_of(order), static_cast<uint64_t>(boundaries.size(-1)),
       per_row | (uint64_t{is_right} << 63)},
      extra);
  if (!out.is_same(result)) result.copy_(out);
  return result;
}

at::Tensor searchsorted(const at::Tensor& sorted_sequence, const at::Tensor& self, bool out_int32,
                        bool right, std::optional<c10::string_view> side,
                        const std::optional<at::Tensor>& sorter) {
  at::Tensor result = at::empty({0}, self.options().dtype(out_int32 ? at::kInt : at::kLong));
  return searchsorted_out(sorted_sequence, self, out_int32, right, side, sorter, result);
}

at::Tensor& searchsorted_scalar_out(const at::Tensor& sorted_sequence, const c10::Scalar& self,
                                    bool out_int32, bool right,
                                    std::optional<c10::string_view> side,
                                    const std::optional<at::Tensor>& sorter, at::Tensor& result) {
  at::Tensor value = at::native::searchsorted_scalar_tensor(self, sorted_sequence.device());
  return searchsorted_out(sorted_sequence, value, out_int32, right, side, sorter, result);
}

at::Tensor searchsorted_scalar(const at::Tensor& sorted_sequence, const c10::Scalar& self,
                               bool out_int32, bool right, std::optional<c10::string_view> side,
                               const std::optional<at::Tensor>& sorter) {
  return torchvulkan::searchsorted(
      sorted_sequence, at::native::searchsorted_scalar_tensor(self, sorted_sequence.device()),
      out_int32, right, side, sorter);
}

at::Tensor& bucketize_out(const at::Tensor& self, const at::Tensor& boundaries, bool out_int32,
                          bool right, at::Tensor& result) {
  TORCH_CHECK(boundaries.dim() == 1, "boundaries tensor must be 1 dimension, but got dim(",
              boundaries.dim(), ")");
  return searchsorted_out(boundaries, self, out_int32, right, std::nullopt, std::nullopt, result);
}

at::Tensor bucketize(const at::Tensor& self, const at::Tensor& boundaries, bool out_int32,
                     bool right) {
  at::Tensor result = at::empty({0}, self.options().dtype(out_int32 ? at::kInt : at::kLong));
  return bucketize_out(self, boundaries, out_int32, right, result);
}

at::Tensor bucketize_scalar(const c10::Scalar& self, const at::Tensor& boundaries, bool out_int32,
                            bool right) {
  return torchvulkan::bucketize(at::native::searchsorted_scalar_tensor(self, boundaries.device()),
                                boundaries, out_int32, right);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("searchsorted.Tensor", searchsorted);
  m.impl("searchsorted.Tensor_out", searchsorted_out);
  m.impl("searchsorted.Scalar", searchsorted_scalar);
  m.impl("searchsorted.Scalar_out", searchsorted_scalar_out);
  m.impl("bucketize.Tensor", bucketize);
  m.impl("bucketize.Tensor_out", bucketize_out);
  m.impl("bucketize.Scalar", bucketize_scalar);
}

}  // namespace torchvulkan
