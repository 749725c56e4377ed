// Rounding: floor, ceil, round (to even, optionally at a decimal digit), trunc,
// frac. Integers keep their dtype and are already round (the kernel copies),
// except for frac and round with decimals, which ATen defines for floats only.
#include <ATen/ops/ceil_meta.h>
#include <ATen/ops/floor_meta.h>
#include <ATen/ops/frac_meta.h>
#include <ATen/ops/round_meta.h>
#include <ATen/ops/trunc_meta.h>
#include <torch/library.h>

#include <cmath>

#include "aten/launch.h"
#include "aten/ops/elementwise/cast_bits.h"
#include "aten/ops/elementwise/forms.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;
using Iter = at::TensorIteratorBase;

bool rounding(Iter& iter, std::string_view op) {
  bool integral = c10::isIntegralType(iter.common_dtype(), /*includeBool=*/false);
  return pointwise(iter, "unary", integral ? "identity" : op);
}

bool floor_kernel(Iter& iter) {
  return rounding(iter, "floor");
}
bool ceil_kernel(Iter& iter) {
  return rounding(iter, "ceil");
}
bool round_kernel(Iter& iter) {
  return rounding(iter, "round");
}
bool trunc_kernel(Iter& iter) {
  return rounding(iter, "trunc");
}
bool frac_kernel(Iter& iter) {
  return pointwise(iter, "unary", "frac");
}  // floats only

TV_UNARY_FORMS(floor, structured_floor, floor_kernel)
TV_UNARY_FORMS(ceil, structured_ceil, ceil_kernel)
TV_UNARY_FORMS(round, structured_round, round_kernel)
TV_UNARY_FORMS(trunc, structured_trunc, trunc_kernel)
TV_UNARY_FORMS(frac, structured_frac, frac_kernel)

// As ATen: x * 10^d rounded, / 10^d; for d < 0, x / 10^-d rounded, * 10^-d
// (10^|d| in the compute type, rounded once on the host).
auto round_decimals_kernel(int64_t decimals) {
  return [decimals](Iter& iter) {
    if (decimals == 0) return pointwise(iter, "unary", "round");  // floats only, as in ATen
    c10::ScalarType opmath = opmath_type(iter.common_dtype());
    double scale = std::pow(10.0, static_cast<double>(decimals < 0 ? -decimals : decimals));
    return pointwise(iter, "unary", "round_decimals",
                     {cast_bits(scale, opmath), cast_bits(decimals < 0 ? 1.0 : 0.0, opmath)});
  };
}

at::Tensor round_decimals(const at::Tensor& x, int64_t decimals) {
  return structured_functional<m::structured_round_decimals>(round_decimals_kernel(decimals), x,
                                                             decimals);
}
at::Tensor& round_decimals_(at::Tensor& x, int64_t decimals) {
  return structured_inplace<m::structured_round_decimals>(round_decimals_kernel(decimals), x,
                                                          decimals);
}
at::Tensor& round_decimals_out(const at::Tensor& x, int64_t decimals, at::Tensor& out) {
  return structured_out<m::structured_round_decimals>(round_decimals_kernel(decimals), out, x,
                                                      decimals);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  REGISTER_FORMS(floor)
  REGISTER_FORMS(ceil)
  REGISTER_FORMS(round)
  REGISTER_FORMS(trunc)
  REGISTER_FORMS(frac)
  m.impl("round.decimals", round_decimals);
  m.impl("round_.decimals", round_decimals_);
  m.impl("round.decimals_out", round_decimals_out);
}

}  // namespace torchvulkan
