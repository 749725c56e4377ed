// Comparisons (eq, ne, lt, le, gt, ge against a tensor or a scalar) and the
// logical ops (and, or, xor, not); bool out. torch.equal: eq, then all, read
// back (its result is a host bool, so it waits for the device as on CUDA).
#include <ATen/ops/empty.h>
#include <ATen/ops/eq.h>
#include <ATen/ops/eq_meta.h>
#include <ATen/ops/ge_meta.h>
#include <ATen/ops/gt_meta.h>
#include <ATen/ops/le_meta.h>
#include <ATen/ops/lt_meta.h>
#include <ATen/ops/ne_meta.h>
#include <torch/library.h>

#include "aten/launch.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

#define COMPARE_FORMS(name)                                                                   \
  bool name##_kernel(at::TensorIteratorBase& iter) {                                          \
    return pointwise(iter, "compare", #name, {}, true);                                       \
  }                                                                                           \
  at::Tensor name##_tensor(const at::Tensor& a, const at::Tensor& b) {                        \
    return structured_functional<m::structured_##name##_Tensor>(name##_kernel, a, b);         \
  }                                                                                           \
  at::Tensor& name##_tensor_(at::Tensor& a, const at::Tensor& b) {                            \
    return structured_inplace<m::structured_##name##_Tensor>(name##_kernel, a, b);            \
  }                                                                                           \
  at::Tensor& name##_tensor_out(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {  \
    return structured_out<m::structured_##name##_Tensor>(name##_kernel, out, a, b);           \
  }                                                                                           \
  at::Tensor name##_scalar(const at::Tensor& a, const c10::Scalar& b) {                       \
    return structured_functional<m::structured_##name##_Scalar>(name##_kernel, a, b);         \
  }                                                                                           \
  at::Tensor& name##_scalar_(at::Tensor& a, const c10::Scalar& b) {                           \
    return structured_inplace<m::structured_##name##_Scalar>(name##_kernel, a, b);            \
  }                                                                                           \
  at::Tensor& name##_scalar_out(const at::Tensor& a, const c10::Scalar& b, at::Tensor& out) { \
    return structured_out<m::structured_##name##_Scalar>(name##_kernel, out, a, b);           \
  }

COMPARE_FORMS(eq)
COMPARE_FORMS(ne)
COMPARE_FORMS(lt)
COMPARE_FORMS(le)
COMPARE_FORMS(gt)
COMPARE_FORMS(ge)

// ATen's logical ops build a comparison iterator on their out tensor, which may
// have any dtype: the shaders write bool, other dtypes get it through a copy.
at::Tensor& logical_out(const char* op, const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
  if (out.scalar_type() != c10::ScalarType::Bool) {
    at::Tensor result = at::empty({0}, out.options().dtype(c10::ScalarType::Bool));
    logical_out(op, a, b, result);
    if (out.is_same(a) || out.is_same(b)) {
      TORCH_CHECK(out.sizes() == result.sizes(), "output with shape ", out.sizes(),
                  " doesn't match the broadcast shape ", result.sizes());
    }
    at::native::resize_output(out, result.sizes());
    return out.copy_(result);
  }
  // The inputs are read in their common dtype; host scalars convert at launch.
  c10::ScalarType dtype = at::result_type(a, b);
  auto cast = [&](const at::Tensor& t) {
    bool keep = t.scalar_type() == dtype || (t.device().is_cpu() && t.dim() == 0);
    return keep ? t : t.to(out.device(), dtype);
  };
  at::Tensor ca = cast(a), cb = cast(b);
  at::TensorIterator iter = at::TensorIteratorConfig()
                                .set_check_mem_overlap(true)
                                .add_output(out)
                                .add_const_input(ca)
                                .add_const_input(cb)
                                .allow_cpu_scalars(true)
                                .promote_inputs_to_common_dtype(true)
                                .build();
  pointwise(iter, "compare", op, {}, true);
  return out;
}

at::Tensor& logical_and_out(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
  return logical_out("logical_and", a, b, out);
}
at::Tensor& logical_or_out(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
  return logical_out("logical_or", a, b, out);
}
at::Tensor& logical_xor_out(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
  return logical_out("logical_xor", a, b, out);
}

at::Tensor& logical_not_out(const at::Tensor& x, at::Tensor& out) {
  if (out.scalar_type() != c10::ScalarType::Bool) {
    at::Tensor result = at::empty({0}, out.options().dtype(c10::ScalarType::Bool));
    logical_not_out(x, result);
    at::native::resize_output(out, result.sizes());
    return out.copy_(result);
  }
  at::TensorIterator iter = at::TensorIteratorConfig()
                                .check_all_same_dtype(false)
                                .add_output(out)
                                .add_const_input(x)
                                .build();
  launch_elementwise(std::string("logical_not.logical_not.") + dtype_name(x.scalar_type()), iter);
  return out;
}

// The CPU's checks; then the same sizes and every element equal (NaN never is).
bool equal(const at::Tensor& self, const at::Tensor& other) {
  TORCH_CHECK(self.device() == other.device(), "Cannot compare two tensors on different devices. Got: ",
              self.device(), " and ", other.device());
  TORCH_CHECK(self.dtype() == other.dtype(), "Expected object of scalar type ", self.dtype(),
              " but got scalar type ", other.dtype(), " for argument 'other'");
  if (!self.is_same_size(other)) return false;
  if (self.numel() == 0) return true;
  return at::eq(self, other).all().item<bool>();
}

}  // namespace

#define REGISTER_COMPARE(m, name)                 \
  m.impl(#name ".Tensor", name##_tensor);         \
  m.impl(#name "_.Tensor", name##_tensor_);       \
  m.impl(#name ".Tensor_out", name##_tensor_out); \
  m.impl(#name ".Scalar", name##_scalar);         \
  m.impl(#name "_.Scalar", name##_scalar_);       \
  m.impl(#name ".Scalar_out", name##_scalar_out);

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("equal", equal);
  REGISTER_COMPARE(m, eq)
  REGISTER_COMPARE(m, ne)
  REGISTER_COMPARE(m, lt)
  REGISTER_COMPARE(m, le)
  REGISTER_COMPARE(m, gt)
  REGISTER_COMPARE(m, ge)
  // The functional and in-place forms are composites of these.
  m.impl("logical_and.out", logical_and_out);
  m.impl("logical_or.out", logical_or_out);
  m.impl("logical_xor.out", logical_xor_out);
  m.impl("logical_not.out", logical_not_out);
}

}  // namespace torchvulkan
