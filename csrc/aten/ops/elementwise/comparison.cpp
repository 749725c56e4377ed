// Comparisons: eq, ne, lt, le, gt, ge against a tensor or a scalar; bool out.
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

#define COMPARE_FORMS(name)                                                                          \
  bool name##_kernel(at::TensorIteratorBase& iter) { return pointwise(iter, "compare", #name, {}, true); } \
  at::Tensor name##_tensor(const at::Tensor& a, const at::Tensor& b) {                               \
    return structured_functional<m::structured_##name##_Tensor>(name##_kernel, a, b);                \
  }                                                                                                  \
  at::Tensor& name##_tensor_(at::Tensor& a, const at::Tensor& b) {                                   \
    return structured_inplace<m::structured_##name##_Tensor>(name##_kernel, a, b);                   \
  }                                                                                                  \
  at::Tensor& name##_tensor_out(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {         \
    return structured_out<m::structured_##name##_Tensor>(name##_kernel, out, a, b);                  \
  }                                                                                                  \
  at::Tensor name##_scalar(const at::Tensor& a, const c10::Scalar& b) {                              \
    return structured_functional<m::structured_##name##_Scalar>(name##_kernel, a, b);                \
  }                                                                                                  \
  at::Tensor& name##_scalar_(at::Tensor& a, const c10::Scalar& b) {                                  \
    return structured_inplace<m::structured_##name##_Scalar>(name##_kernel, a, b);                   \
  }                                                                                                  \
  at::Tensor& name##_scalar_out(const at::Tensor& a, const c10::Scalar& b, at::Tensor& out) {        \
    return structured_out<m::structured_##name##_Scalar>(name##_kernel, out, a, b);                  \
  }

COMPARE_FORMS(eq)
COMPARE_FORMS(ne)
COMPARE_FORMS(lt)
COMPARE_FORMS(le)
COMPARE_FORMS(gt)
COMPARE_FORMS(ge)

}  // namespace

#define REGISTER_COMPARE(m, name)                 \
  m.impl(#name ".Tensor", name##_tensor);         \
  m.impl(#name "_.Tensor", name##_tensor_);       \
  m.impl(#name ".Tensor_out", name##_tensor_out); \
  m.impl(#name ".Scalar", name##_scalar);         \
  m.impl(#name "_.Scalar", name##_scalar_);       \
  m.impl(#name ".Scalar_out", name##_scalar_out);

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  REGISTER_COMPARE(m, eq)
  REGISTER_COMPARE(m, ne)
  REGISTER_COMPARE(m, lt)
  REGISTER_COMPARE(m, le)
  REGISTER_COMPARE(m, gt)
  REGISTER_COMPARE(m, ge)
}

}  // namespace torchvulkan
