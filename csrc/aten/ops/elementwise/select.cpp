// Selection by a bool mask: where(cond, a, b) and masked_fill_.
#include <ATen/MemoryOverlap.h>
#include <ATen/native/TypeProperties.h>
#include <ATen/ops/empty.h>
#include <torch/library.h>

#include <string>

#include "aten/ops/elementwise/forms.h"

namespace torchvulkan {
namespace {

at::Tensor& where_out(const at::Tensor& cond, const at::Tensor& a, const at::Tensor& b,
                      at::Tensor& out) {
  c10::ScalarType dtype = at::native::result_type(a, b);
  TORCH_CHECK(out.scalar_type() == dtype, "Expected out type to be ", dtype, " but got ",
              out.scalar_type());
  // As ATen: a and b take their result type, and 0-dim host tensors move to
  // the device.
  auto on_device = [&](const at::Tensor& t, c10::ScalarType type) {
    bool move = t.device() != out.device() && t.dim() == 0;
    return move || t.scalar_type() != type ? t.to(move ? out.device() : t.device(), type) : t;
  };
  at::Tensor c = on_device(cond, cond.scalar_type() == c10::ScalarType::Byte ? c10::ScalarType::Bool
                                                                             : cond.scalar_type());
  TORCH_CHECK(c.scalar_type() == c10::ScalarType::Bool,
              "where expected condition to be a boolean tensor, but got a tensor with dtype ",
              cond.scalar_type());
  at::Tensor a_ = on_device(a, dtype), b_ = on_device(b, dtype);
  at::TensorIterator iter = at::TensorIteratorConfig()
                                .check_all_same_dtype(false)
                                .add_output(out)
                                .add_const_input(c)
                                .add_const_input(a_)
                                .add_const_input(b_)
                                .build();
  launch_elementwise(std::string("where.") + dtype_name(dtype), iter);
  return out;
}

at::Tensor where(const at::Tensor& cond, const at::Tensor& a, const at::Tensor& b) {
  // The result lives where the non-scalar operands do (a may be a host scalar).
  c10::Device device = !a.device().is_cpu()   ? a.device()
                       : !b.device().is_cpu() ? b.device()
                                              : cond.device();
  at::Tensor out = at::empty({0}, a.options().dtype(at::native::result_type(a, b)).device(device));
  return where_out(cond, a, b, out);
}

at::Tensor& masked_fill_(at::Tensor& self, const at::Tensor& mask, const c10::Scalar& value) {
  TORCH_CHECK(mask.scalar_type() == c10::ScalarType::Bool,
              "masked_fill_ only supports boolean masks, but got mask with dtype ",
              mask.scalar_type());
  if (at::has_internal_overlap(self) == at::MemOverlap::Yes) {
    TORCH_WARN(
        "Use of masked_fill_ on expanded tensors is deprecated. "
        "Please clone() the tensor before performing this operation. "
        "This also applies to advanced indexing e.g. tensor[mask] = scalar");
  }
  at::assert_no_partial_overlap(self, mask);
  // Only elements under the mask are written: self is an output, not an input.
  at::TensorIterator iter = at::TensorIteratorConfig()
                                .set_check_mem_overlap(false)
                                .check_all_same_dtype(false)
                                .resize_outputs(false)
                                .add_output(self)
                                .add_const_input(mask)
                                .build();
  // The value converts as the CPU kernel's value.to<scalar_t>(): checked, so
  // an out-of-range value raises.
  launch_elementwise(std::string("masked_fill.") + dtype_name(self.scalar_type()), iter,
                     {scalar_bits(value, self.scalar_type())});
  return self;
}

at::Tensor& masked_fill_tensor_(at::Tensor& self, const at::Tensor& mask, const at::Tensor& value) {
  TORCH_CHECK(value.dim() == 0,
              "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s).");
  return masked_fill_(self, mask, value.item());
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("where.self", where);
  m.impl("where.self_out", where_out);
  m.impl("masked_fill_.Scalar", masked_fill_);
  m.impl("masked_fill_.Tensor", masked_fill_tensor_);
}

}  // namespace torchvulkan
