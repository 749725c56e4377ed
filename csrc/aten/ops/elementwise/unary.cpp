// Unary math: out = f(x). ATen's meta promotes integer inputs of float
// functions (exp, sin, ...) to the default float dtype.
#include <ATen/ops/cos_meta.h>
#include <ATen/ops/erf_meta.h>
#include <ATen/ops/exp_meta.h>
#include <ATen/ops/log_meta.h>
#include <ATen/ops/neg_meta.h>
#include <ATen/ops/reciprocal_meta.h>
#include <ATen/ops/rsqrt_meta.h>
#include <ATen/ops/sigmoid_meta.h>
#include <ATen/ops/sin_meta.h>
#include <ATen/ops/sqrt_meta.h>
#include <ATen/ops/tanh_meta.h>
#include <torch/library.h>

#include "aten/launch.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

// Functional, in-place and out= forms of a structured unary op whose kernel is
// the variant "unary.<op>".
#define UNARY_FORMS(name, op)                                                                       \
  bool name##_kernel(at::TensorIteratorBase& iter) { return pointwise(iter, "unary", op); }        \
  at::Tensor name(const at::Tensor& x) { return structured_functional<m::structured_##name>(name##_kernel, x); } \
  at::Tensor& name##_(at::Tensor& x) { return structured_inplace<m::structured_##name>(name##_kernel, x); }       \
  at::Tensor& name##_out(const at::Tensor& x, at::Tensor& out) {                                   \
    return structured_out<m::structured_##name>(name##_kernel, out, x);                            \
  }

UNARY_FORMS(neg, "neg")
UNARY_FORMS(reciprocal, "reciprocal")
UNARY_FORMS(sqrt, "sqrt")
UNARY_FORMS(rsqrt, "rsqrt")
UNARY_FORMS(exp, "exp")
UNARY_FORMS(log, "log")
UNARY_FORMS(sin, "sin")
UNARY_FORMS(cos, "cos")
UNARY_FORMS(tanh, "tanh")
UNARY_FORMS(sigmoid, "sigmoid")
UNARY_FORMS(erf, "erf")

}  // namespace

#define REGISTER_UNARY(m, name)     \
  m.impl(#name, name);              \
  m.impl(#name "_", name##_);       \
  m.impl(#name ".out", name##_out);

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  REGISTER_UNARY(m, neg)
  REGISTER_UNARY(m, reciprocal)
  REGISTER_UNARY(m, sqrt)
  REGISTER_UNARY(m, rsqrt)
  REGISTER_UNARY(m, exp)
  REGISTER_UNARY(m, log)
  REGISTER_UNARY(m, sin)
  REGISTER_UNARY(m, cos)
  REGISTER_UNARY(m, tanh)
  REGISTER_UNARY(m, sigmoid)
  REGISTER_UNARY(m, erf)
}

}  // namespace torchvulkan
