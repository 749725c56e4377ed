// maximum/minimum (NaN propagates), fmax/fmin (NaN is ignored) and the clamps.
// Bool max/min are or/and; integers need no NaN test.

// c10/core/OptionalRef.h, which the clamp metas include, uses the assertion
// macros without including their header.
// clang-format off
#include <c10/util/Exception.h>
// clang-format on

#include <ATen/native/TypeProperties.h>
#include <ATen/ops/clamp_max_meta.h>
#include <ATen/ops/clamp_meta.h>
#include <ATen/ops/clamp_min_meta.h>
#include <ATen/ops/fmax_meta.h>
#include <ATen/ops/fmin_meta.h>
#include <ATen/ops/maximum_meta.h>
#include <ATen/ops/minimum_meta.h>
#include <torch/library.h>

#include <limits>

#include "aten/ops/elementwise/forms.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;
using Iter = at::TensorIteratorBase;

bool is_bool(const Iter& iter) {
  return iter.common_dtype() == c10::ScalarType::Bool;
}
bool is_float(const Iter& iter) {
  return c10::isFloatingType(iter.common_dtype());
}

bool maximum_kernel(Iter& iter) {
  if (is_bool(iter)) return pointwise(iter, "binary", "logical_or", {1});
  return pointwise(iter, "binary", is_float(iter) ? "maximum" : "maximum_int");
}
bool minimum_kernel(Iter& iter) {
  if (is_bool(iter)) return pointwise(iter, "binary", "logical_and");
  return pointwise(iter, "binary", is_float(iter) ? "minimum" : "minimum_int");
}
bool fmax_kernel(Iter& iter) {
  return is_float(iter) ? pointwise(iter, "binary", "fmax") : maximum_kernel(iter);
}
bool fmin_kernel(Iter& iter) {
  return is_float(iter) ? pointwise(iter, "binary", "fmin") : minimum_kernel(iter);
}

TV_BINARY_FUNCTIONAL_OUT(maximum, structured_maximum, maximum_kernel)
TV_BINARY_FUNCTIONAL_OUT(minimum, structured_minimum, minimum_kernel)
TV_BINARY_FUNCTIONAL_OUT(fmax, structured_fmax, fmax_kernel)
TV_BINARY_FUNCTIONAL_OUT(fmin, structured_fmin, fmin_kernel)

bool is_nan(const c10::Scalar& s) {
  return s.toDouble() != s.toDouble();
}

// Fills the output with NaN: ATen's answer to a NaN bound.
bool fill_nan(Iter& iter) {
  at::Tensor(iter.tensor(0)).fill_(std::numeric_limits<double>::quiet_NaN());
  return true;
}

// Scalar bounds: a NaN bound fills NaN (clamp_max with only a NaN max keeps x,
// as ATen's kernel does).
auto clamp_kernel(at::OptionalScalarRef lo, at::OptionalScalarRef hi) {
  return [lo, hi](Iter& iter) {
    c10::ScalarType type = iter.common_dtype();
    if (lo && hi) {
      if (is_nan(lo.get()) || is_nan(hi.get())) return fill_nan(iter);
      return pointwise(iter, "scalar", "clamp",
                       {opmath_bits(lo.get(), type), opmath_bits(hi.get(), type)});
    }
    if (hi) return pointwise(iter, "scalar", "clamp_max", {opmath_bits(hi.get(), type)});
    return pointwise(iter, "scalar", "clamp_min", {opmath_bits(lo.get(), type)});
  };
}

auto clamp_min_kernel(const c10::Scalar& lo) {
  return [&lo](Iter& iter) {
    if (is_nan(lo)) return fill_nan(iter);
    return pointwise(iter, "scalar", "clamp_min", {opmath_bits(lo, iter.common_dtype())});
  };
}
auto clamp_max_kernel(const c10::Scalar& hi) {
  return [&hi](Iter& iter) {
    if (is_nan(hi)) return fill_nan(iter);
    return pointwise(iter, "scalar", "clamp_max", {opmath_bits(hi, iter.common_dtype())});
  };
}

// Tensor bounds: both give a ternary clamp, one alone is maximum or minimum.
auto clamp_tensor_kernel(bool has_lo, bool has_hi) {
  return [has_lo, has_hi](Iter& iter) {
    if (has_lo && has_hi) return pointwise(iter, "ternary", "clamp");
    return has_lo ? maximum_kernel(iter) : minimum_kernel(iter);
  };
}

using OptScalar = std::optional<c10::Scalar>;
using OptTensor = std::optional<at::Tensor>;

at::OptionalScalarRef opt_ref(const OptScalar& s) {
  return s ? at::OptionalScalarRef(*s) : at::OptionalScalarRef();
}
at::OptionalTensorRef opt_ref(const OptTensor& t) {
  return t ? at::OptionalTensorRef(*t) : at::OptionalTensorRef();
}

at::Tensor clamp(const at::Tensor& x, const OptScalar& lo, const OptScalar& hi) {
  return structured_functional<m::structured_clamp>(clamp_kernel(opt_ref(lo), opt_ref(hi)), x,
                                                    opt_ref(lo), opt_ref(hi));
}
at::Tensor& clamp_(at::Tensor& x, const OptScalar& lo, const OptScalar& hi) {
  return structured_inplace<m::structured_clamp>(clamp_kernel(opt_ref(lo), opt_ref(hi)), x,
                                                 opt_ref(lo), opt_ref(hi));
}
at::Tensor& clamp_out(const at::Tensor& x, const OptScalar& lo, const OptScalar& hi,
                      at::Tensor& out) {
  return structured_out<m::structured_clamp>(clamp_kernel(opt_ref(lo), opt_ref(hi)), out, x,
                                             opt_ref(lo), opt_ref(hi));
}

// structured.h casts plain tensor arguments to the common dtype; the optional
// bounds are cast here, to the dtype ATen's clamp meta promotes all three to.
struct Bounds {
  OptTensor lo, hi;
  Bounds(const at::Tensor& x, const OptTensor& lo_, const OptTensor& hi_) {
    auto present = [](const OptTensor& t) { return t && t->defined() ? t : OptTensor(); };
    lo = present(lo_);
    hi = present(hi_);
    at::native::ResultTypeState state = at::native::update_result_type_state(x, {});
    if (lo) state = at::native::update_result_type_state(*lo, state);
    if (hi) state = at::native::update_result_type_state(*hi, state);
    c10::ScalarType dtype = at::native::result_type(state);
    if (lo && lo->scalar_type() != dtype) lo = lo->to(dtype);
    if (hi && hi->scalar_type() != dtype) hi = hi->to(dtype);
  }
  auto kernel() const { return clamp_tensor_kernel(lo.has_value(), hi.has_value()); }
};

at::Tensor clamp_t(const at::Tensor& x, const OptTensor& lo, const OptTensor& hi) {
  Bounds b(x, lo, hi);
  return structured_functional<m::structured_clamp_Tensor>(b.kernel(), x, opt_ref(b.lo),
                                                           opt_ref(b.hi));
}
at::Tensor& clamp_t_(at::Tensor& x, const OptTensor& lo, const OptTensor& hi) {
  Bounds b(x, lo, hi);
  return structured_inplace<m::structured_clamp_Tensor>(b.kernel(), x, opt_ref(b.lo),
                                                        opt_ref(b.hi));
}
at::Tensor& clamp_t_out(const at::Tensor& x, const OptTensor& lo, const OptTensor& hi,
                        at::Tensor& out) {
  Bounds b(x, lo, hi);
  return structured_out<m::structured_clamp_Tensor>(b.kernel(), out, x, opt_ref(b.lo),
                                                    opt_ref(b.hi));
}

at::Tensor clamp_min(const at::Tensor& x, const c10::Scalar& lo) {
  return structured_functional<m::structured_clamp_min>(clamp_min_kernel(lo), x, lo);
}
at::Tensor& clamp_min_(at::Tensor& x, const c10::Scalar& lo) {
  return structured_inplace<m::structured_clamp_min>(clamp_min_kernel(lo), x, lo);
}
at::Tensor& clamp_min_out(const at::Tensor& x, const c10::Scalar& lo, at::Tensor& out) {
  return structured_out<m::structured_clamp_min>(clamp_min_kernel(lo), out, x, lo);
}
at::Tensor clamp_max(const at::Tensor& x, const c10::Scalar& hi) {
  return structured_functional<m::structured_clamp_max>(clamp_max_kernel(hi), x, hi);
}
at::Tensor& clamp_max_(at::Tensor& x, const c10::Scalar& hi) {
  return structured_inplace<m::structured_clamp_max>(clamp_max_kernel(hi), x, hi);
}
at::Tensor& clamp_max_out(const at::Tensor& x, const c10::Scalar& hi, at::Tensor& out) {
  return structured_out<m::structured_clamp_max>(clamp_max_kernel(hi), out, x, hi);
}

// clamp_min/clamp_max with a tensor bound are maximum/minimum under their own meta.
TV_BINARY_FORMS(clamp_min_t, structured_clamp_min_Tensor, maximum_kernel)
TV_BINARY_FORMS(clamp_max_t, structured_clamp_max_Tensor, minimum_kernel)

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("maximum", maximum);
  m.impl("maximum.out", maximum_out);
  m.impl("minimum", minimum);
  m.impl("minimum.out", minimum_out);
  m.impl("fmax", fmax);
  m.impl("fmax.out", fmax_out);
  m.impl("fmin", fmin);
  m.impl("fmin.out", fmin_out);
  m.impl("clamp", clamp);
  m.impl("clamp_", clamp_);
  m.impl("clamp.out", clamp_out);
  m.impl("clamp.Tensor", clamp_t);
  m.impl("clamp_.Tensor", clamp_t_);
  m.impl("clamp.Tensor_out", clamp_t_out);
  m.impl("clamp_min", clamp_min);
  m.impl("clamp_min_", clamp_min_);
  m.impl("clamp_min.out", clamp_min_out);
  m.impl("clamp_min.Tensor", clamp_min_t);
  m.impl("clamp_min_.Tensor", clamp_min_t_);
  m.impl("clamp_min.Tensor_out", clamp_min_t_out);
  m.impl("clamp_max", clamp_max);
  m.impl("clamp_max_", clamp_max_);
  m.impl("clamp_max.out", clamp_max_out);
  m.impl("clamp_max.Tensor", clamp_max_t);
  m.impl("clamp_max_.Tensor", clamp_max_t_);
  m.impl("clamp_max.Tensor_out", clamp_max_t_out);
}

}  // namespace torchvulkan
