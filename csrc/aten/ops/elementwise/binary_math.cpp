// Binary math on floats: atan2, hypot, copysign, xlogy, logaddexp,
// logaddexp2 (integer inputs promote to float), nextafter (floats only);
// heaviside (any dtype); gcd and lcm (integers).
#include <ATen/ops/atan2_meta.h>
#include <ATen/ops/copysign_meta.h>
#include <ATen/ops/gcd_meta.h>
#include <ATen/ops/heaviside_meta.h>
#include <ATen/ops/hypot_meta.h>
#include <ATen/ops/lcm_meta.h>
#include <ATen/ops/logaddexp2_meta.h>
#include <ATen/ops/logaddexp_meta.h>
#include <ATen/ops/nextafter_meta.h>
#include <ATen/ops/xlogy_meta.h>
#include <torch/library.h>

#include "aten/ops/elementwise/forms.h"

namespace torchvulkan {
namespace {

#define BINARY_KERNEL(name)                          \
  bool name##_kernel(at::TensorIteratorBase& iter) { \
    return pointwise(iter, "binary", #name);         \
  }

BINARY_KERNEL(atan2)
BINARY_KERNEL(hypot)
BINARY_KERNEL(copysign)
BINARY_KERNEL(heaviside)
BINARY_KERNEL(xlogy)
BINARY_KERNEL(logaddexp)
BINARY_KERNEL(logaddexp2)
BINARY_KERNEL(gcd)
BINARY_KERNEL(lcm)

// nextafter keeps the inputs' dtype, which must be a float one, as on the CPU.
bool nextafter_kernel(at::TensorIteratorBase& iter) {
  TORCH_CHECK(at::isFloatingType(iter.common_dtype()), "\"nextafter_cpu\" not implemented for '",
              iter.common_dtype(), "'");
  return pointwise(iter, "binary", "nextafter");
}

TV_BINARY_FORMS(atan2, structured_atan2, atan2_kernel)
TV_BINARY_FORMS(hypot, structured_hypot, hypot_kernel)
TV_BINARY_FORMS(copysign, structured_copysign_Tensor, copysign_kernel)
TV_BINARY_FORMS(heaviside, structured_heaviside, heaviside_kernel)
TV_BINARY_FORMS(xlogy, structured_xlogy_Tensor, xlogy_kernel)
TV_BINARY_FUNCTIONAL_OUT(logaddexp, structured_logaddexp, logaddexp_kernel)
TV_BINARY_FUNCTIONAL_OUT(logaddexp2, structured_logaddexp2, logaddexp2_kernel)
TV_BINARY_FORMS(gcd, structured_gcd, gcd_kernel)
TV_BINARY_FORMS(lcm, structured_lcm, lcm_kernel)
TV_BINARY_FORMS(nextafter, structured_nextafter, nextafter_kernel)

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("atan2", atan2);
  m.impl("atan2_", atan2_);
  m.impl("atan2.out", atan2_out);
  m.impl("hypot", hypot);
  m.impl("hypot_", hypot_);
  m.impl("hypot.out", hypot_out);
  m.impl("copysign.Tensor", copysign);
  m.impl("copysign_.Tensor", copysign_);
  m.impl("copysign.out", copysign_out);
  m.impl("heaviside", heaviside);
  m.impl("heaviside_", heaviside_);
  m.impl("heaviside.out", heaviside_out);
  m.impl("xlogy.Tensor", xlogy);
  m.impl("xlogy_.Tensor", xlogy_);
  m.impl("xlogy.OutTensor", xlogy_out);
  m.impl("logaddexp", logaddexp);
  m.impl("logaddexp.out", logaddexp_out);
  m.impl("logaddexp2", logaddexp2);
  m.impl("logaddexp2.out", logaddexp2_out);
  m.impl("gcd", gcd);
  m.impl("gcd_", gcd_);
  m.impl("gcd.out", gcd_out);
  m.impl("lcm", lcm);
  m.impl("lcm_", lcm_);
  m.impl("lcm.out", lcm_out);
  m.impl("nextafter", nextafter);
  m.impl("nextafter_", nextafter_);
  m.impl("nextafter.out", nextafter_out);
}

}  // namespace torchvulkan
