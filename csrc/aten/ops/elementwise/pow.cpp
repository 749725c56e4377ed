// pow in its three forms: tensor ** tensor, tensor ** scalar, scalar ** tensor.
// Integer bases use exact repeated squaring; float64 takes exp and log from
// shaders/common/math64.glsl.
#include <ATen/ScalarOps.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/pow_meta.h>
#include <torch/library.h>

#include "aten/ops/elementwise/forms.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;
using Iter = at::TensorIteratorBase;

bool pow_kernel(Iter& iter) {
  return pointwise(iter, "binary", "pow");
}

// As ATen: x ** 0 is 1 and x ** 1 is x, whatever x holds (NaN too).
auto pow_scalar_kernel(const c10::Scalar& exp) {
  return [&exp](Iter& iter) {
    at::Tensor out = iter.tensor(0);
    if (exp.equal(0.0) || exp.equal(false)) {
      out.fill_(1);
    } else if (exp.equal(1.0) || exp.equal(true)) {
      out.copy_(iter.tensor(1));
    } else {
      return pointwise(iter, "scalar", "pow", {opmath_bits(exp, iter.common_dtype())});
    }
    return true;
  };
}

TV_BINARY_FORMS(pow, structured_pow_Tensor_Tensor, pow_kernel)

at::Tensor pow_ts(const at::Tensor& x, const c10::Scalar& exp) {
  return structured_functional<m::structured_pow_Tensor_Scalar>(pow_scalar_kernel(exp), x, exp);
}
at::Tensor& pow_ts_(at::Tensor& x, const c10::Scalar& exp) {
  return structured_inplace<m::structured_pow_Tensor_Scalar>(pow_scalar_kernel(exp), x, exp);
}
at::Tensor& pow_ts_out(const at::Tensor& x, const c10::Scalar& exp, at::Tensor& out) {
  return structured_out<m::structured_pow_Tensor_Scalar>(pow_scalar_kernel(exp), out, x, exp);
}

// scalar ** tensor: 1 ** anything is 1, otherwise the base joins the tensor
// form as a host scalar, as ATen does.
at::Tensor& pow_st_out(const c10::Scalar& base, const at::Tensor& exp, at::Tensor& out) {
  at::native::resize_output(out, exp.sizes());
  if (base.equal(1.0)) return out.fill_(1);
  return pow_out(at::native::wrapped_scalar_tensor(base), exp, out);
}
at::Tensor pow_st(const c10::Scalar& base, const at::Tensor& exp) {
  at::Tensor out = at::empty(exp.sizes(), exp.options().dtype(at::result_type(base, exp)));
  return pow_st_out(base, exp, out);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("pow.Tensor_Tensor", pow);
  m.impl("pow_.Tensor", pow_);
  m.impl("pow.Tensor_Tensor_out", pow_out);
  m.impl("pow.Tensor_Scalar", pow_ts);
  m.impl("pow_.Scalar", pow_ts_);
  m.impl("pow.Tensor_Scalar_out", pow_ts_out);
  m.impl("pow.Scalar", pow_st);
  m.impl("pow.Scalar_out", pow_st_out);
}

}  // namespace torchvulkan
