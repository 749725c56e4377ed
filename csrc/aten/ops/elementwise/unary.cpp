// Unary math: out = f(x). ATen's meta promotes integer and bool inputs of
// these functions (all but neg) to the default float dtype, so their kernels
// see float inputs.
#include <ATen/ops/acos_meta.h>
#include <ATen/ops/acosh_meta.h>
#include <ATen/ops/asin_meta.h>
#include <ATen/ops/asinh_meta.h>
#include <ATen/ops/atan_meta.h>
#include <ATen/ops/atanh_meta.h>
#include <ATen/ops/cos_meta.h>
#include <ATen/ops/cosh_meta.h>
#include <ATen/ops/digamma_meta.h>
#include <ATen/ops/erf_meta.h>
#include <ATen/ops/erfc_meta.h>
#include <ATen/ops/erfinv_meta.h>
#include <ATen/ops/exp2_meta.h>
#include <ATen/ops/exp_meta.h>
#include <ATen/ops/expm1_meta.h>
#include <ATen/ops/i0_meta.h>
#include <ATen/ops/lgamma_meta.h>
#include <ATen/ops/log10_meta.h>
#include <ATen/ops/log1p_meta.h>
#include <ATen/ops/log2_meta.h>
#include <ATen/ops/log_meta.h>
#include <ATen/ops/mvlgamma_native.h>
#include <ATen/ops/neg_meta.h>
#include <ATen/ops/polygamma_meta.h>
#include <ATen/ops/reciprocal_meta.h>
#include <ATen/ops/rsqrt_meta.h>
#include <ATen/ops/sigmoid_meta.h>
#include <ATen/ops/sin_meta.h>
#include <ATen/ops/sinc_meta.h>
#include <ATen/ops/sinh_meta.h>
#include <ATen/ops/special_i0e_meta.h>
#include <ATen/ops/special_i1_meta.h>
#include <ATen/ops/special_i1e_meta.h>
#include <ATen/ops/special_ndtri_meta.h>
#include <ATen/ops/sqrt_meta.h>
#include <ATen/ops/tan_meta.h>
#include <ATen/ops/tanh_meta.h>
#include <torch/library.h>

#include "aten/launch.h"
#include "aten/ops/elementwise/forms.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

// Functional, in-place and out= forms of a structured unary op whose kernel is
// the variant "unary.<name>".
#define UNARY_FORMS(name)                            \
  bool name##_kernel(at::TensorIteratorBase& iter) { \
    return pointwise(iter, "unary", #name);          \
  }                                                  \
  TV_UNARY_FORMS(name, structured_##name, name##_kernel)

#define FOR_EACH_UNARY(_)                                                                       \
  _(neg)                                                                                        \
  _(reciprocal)                                                                                 \
  _(sqrt)                                                                                       \
  _(rsqrt)                                                                                      \
  _(exp) _(exp2) _(expm1) _(log) _(log2) _(log10) _(log1p) _(sin) _(cos) _(tan) _(asin) _(acos) \
      _(atan) _(sinh) _(cosh) _(tanh) _(asinh) _(acosh) _(atanh) _(sigmoid) _(erf) _(erfc)      \
          _(erfinv) _(lgamma) _(digamma) _(sinc)

FOR_EACH_UNARY(UNARY_FORMS)

// The special functions: "unary.<kernel>" under ATen's special_ names
// (without in-place forms, but i0's).
#define SPECIAL_FORMS(name, kernel)                  \
  bool name##_kernel(at::TensorIteratorBase& iter) { \
    return pointwise(iter, "unary", #kernel);        \
  }                                                  \
  TV_UNARY_FORMS(name, structured_##name, name##_kernel)

SPECIAL_FORMS(i0, i0)
SPECIAL_FORMS(special_i0e, i0e)
SPECIAL_FORMS(special_i1, i1)
SPECIAL_FORMS(special_i1e, i1e)
SPECIAL_FORMS(special_ndtri, ndtri)

// polygamma(n, x): the order travels as the kernel's scalar.
auto polygamma_kernel(int64_t n) {
  return [n](at::TensorIteratorBase& iter) {
    return pointwise(iter, "unary", "polygamma", {static_cast<uint64_t>(n)});
  };
}

at::Tensor polygamma(int64_t n, const at::Tensor& x) {
  return structured_functional<at::meta::structured_polygamma>(polygamma_kernel(n), n, x);
}

at::Tensor& polygamma_out(int64_t n, const at::Tensor& x, at::Tensor& out) {
  return structured_out<at::meta::structured_polygamma>(polygamma_kernel(n), out, n, x);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  FOR_EACH_UNARY(REGISTER_FORMS)
  REGISTER_FORMS(i0)
  m.impl("special_i0e", special_i0e);
  m.impl("special_i0e.out", special_i0e_out);
  m.impl("special_i1", special_i1);
  m.impl("special_i1.out", special_i1_out);
  m.impl("special_i1e", special_i1e);
  m.impl("special_i1e.out", special_i1e_out);
  m.impl("special_ndtri", special_ndtri);
  m.impl("special_ndtri.out", special_ndtri_out);
  m.impl("polygamma", polygamma);
  m.impl("polygamma.out", polygamma_out);
  // mvlgamma is composite (a sum of lgamma over a range); ATen's out= form,
  // which runs it and copies, is device-generic but registered per backend.
  m.impl("mvlgamma.out", at::native::mvlgamma_out);
}

}  // namespace torchvulkan
