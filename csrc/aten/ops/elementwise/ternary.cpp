// Ternary arithmetic: lerp (scalar or tensor weight), addcmul, addcdiv.
#include <ATen/ops/addcdiv_meta.h>
#include <ATen/ops/addcmul_meta.h>
#include <ATen/ops/lerp_meta.h>
#include <torch/library.h>

#include "aten/ops/elementwise/forms.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;
using Iter = at::TensorIteratorBase;

// The scalar weight or value travels as a kernel parameter.
auto with_scalar(const char* family, const char* op, const c10::Scalar& s) {
  return [=, &s](Iter& iter) {
    return pointwise(iter, family, op, {opmath_bits(s, iter.common_dtype())});
  };
}
bool lerp_tensor_kernel(Iter& iter) {
  return pointwise(iter, "ternary", "lerp");
}

at::Tensor lerp_s(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& w) {
  return structured_functional<m::structured_lerp_Scalar>(with_scalar("binary", "lerp", w), a, b,
                                                          w);
}
at::Tensor& lerp_s_(at::Tensor& a, const at::Tensor& b, const c10::Scalar& w) {
  return structured_inplace<m::structured_lerp_Scalar>(with_scalar("binary", "lerp", w), a, b, w);
}
at::Tensor& lerp_s_out(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& w,
                       at::Tensor& out) {
  return structured_out<m::structured_lerp_Scalar>(with_scalar("binary", "lerp", w), out, a, b, w);
}

at::Tensor lerp_t(const at::Tensor& a, const at::Tensor& b, const at::Tensor& w) {
  return structured_functional<m::structured_lerp_Tensor>(lerp_tensor_kernel, a, b, w);
}
at::Tensor& lerp_t_(at::Tensor& a, const at::Tensor& b, const at::Tensor& w) {
  return structured_inplace<m::structured_lerp_Tensor>(lerp_tensor_kernel, a, b, w);
}
at::Tensor& lerp_t_out(const at::Tensor& a, const at::Tensor& b, const at::Tensor& w,
                       at::Tensor& out) {
  return structured_out<m::structured_lerp_Tensor>(lerp_tensor_kernel, out, a, b, w);
}

// x + value * t1 * t2 and x + value * t1 / t2.
#define ADDC_FORMS(name)                                                                          \
  at::Tensor name(const at::Tensor& x, const at::Tensor& t1, const at::Tensor& t2,                \
                  const c10::Scalar& v) {                                                         \
    return structured_functional<m::structured_##name>(with_scalar("ternary", #name, v), x, t1,   \
                                                       t2, v);                                    \
  }                                                                                               \
  at::Tensor& name##_(at::Tensor& x, const at::Tensor& t1, const at::Tensor& t2,                  \
                      const c10::Scalar& v) {                                                     \
    return structured_inplace<m::structured_##name>(with_scalar("ternary", #name, v), x, t1, t2,  \
                                                    v);                                           \
  }                                                                                               \
  at::Tensor& name##_out(const at::Tensor& x, const at::Tensor& t1, const at::Tensor& t2,         \
                         const c10::Scalar& v, at::Tensor& out) {                                 \
    return structured_out<m::structured_##name>(with_scalar("ternary", #name, v), out, x, t1, t2, \
                                                v);                                               \
  }

ADDC_FORMS(addcmul)
ADDC_FORMS(addcdiv)

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("lerp.Scalar", lerp_s);
  m.impl("lerp_.Scalar", lerp_s_);
  m.impl("lerp.Scalar_out", lerp_s_out);
  m.impl("lerp.Tensor", lerp_t);
  m.impl("lerp_.Tensor", lerp_t_);
  m.impl("lerp.Tensor_out", lerp_t_out);
  m.impl("addcmul", addcmul);
  m.impl("addcmul_", addcmul_);
  m.impl("addcmul.out", addcmul_out);
  m.impl("addcdiv", addcdiv);
  m.impl("addcdiv_", addcdiv_);
  m.impl("addcdiv.out", addcdiv_out);
}

}  // namespace torchvulkan
