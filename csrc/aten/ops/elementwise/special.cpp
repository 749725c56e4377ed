// torch.special's Bessel functions (J, Y and K of orders 0 and 1, K scaled,
// the spherical j0, I0 and I1 through i0/i1's kernels), Airy's Ai, erfcx, log_ndtr,
// entr, xlog1py, zeta, the regularized incomplete gamma functions, the
// orthogonal polynomials and the reparameterized gradients of Gamma and
// Dirichlet samples (shaders/elementwise/special_functions.glsl).
// ATen's structured metas promote integer inputs to float; the kernels
// compute float32 and float64, as the CPU's and CUDA's do.
#include <ATen/ops/igamma_meta.h>
#include <ATen/ops/igammac_meta.h>
#include <ATen/ops/special_airy_ai_meta.h>
#include <ATen/ops/special_bessel_j0_meta.h>
#include <ATen/ops/special_bessel_j1_meta.h>
#include <ATen/ops/special_bessel_y0_meta.h>
#include <ATen/ops/special_bessel_y1_meta.h>
#include <ATen/ops/special_chebyshev_polynomial_t_meta.h>
#include <ATen/ops/special_chebyshev_polynomial_u_meta.h>
#include <ATen/ops/special_chebyshev_polynomial_v_meta.h>
#include <ATen/ops/special_chebyshev_polynomial_w_meta.h>
#include <ATen/ops/special_entr_meta.h>
#include <ATen/ops/special_erfcx_meta.h>
#include <ATen/ops/special_hermite_polynomial_h_meta.h>
#include <ATen/ops/special_hermite_polynomial_he_meta.h>
#include <ATen/ops/special_laguerre_polynomial_l_meta.h>
#include <ATen/ops/special_legendre_polynomial_p_meta.h>
#include <ATen/ops/special_log_ndtr_meta.h>
#include <ATen/ops/special_modified_bessel_i0_meta.h>
#include <ATen/ops/special_modified_bessel_i1_meta.h>
#include <ATen/ops/special_modified_bessel_k0_meta.h>
#include <ATen/ops/special_modified_bessel_k1_meta.h>
#include <ATen/ops/special_scaled_modified_bessel_k0_meta.h>
#include <ATen/ops/special_scaled_modified_bessel_k1_meta.h>
#include <ATen/ops/special_shifted_chebyshev_polynomial_t_meta.h>
#include <ATen/ops/special_shifted_chebyshev_polynomial_u_meta.h>
#include <ATen/ops/special_shifted_chebyshev_polynomial_v_meta.h>
#include <ATen/ops/special_shifted_chebyshev_polynomial_w_meta.h>
#include <ATen/ops/special_spherical_bessel_j0_meta.h>
#include <ATen/ops/special_xlog1py_meta.h>
#include <ATen/ops/special_zeta_meta.h>
#include <torch/library.h>

#include "aten/ops/elementwise/forms.h"

namespace torchvulkan {
namespace {

// "<family>.<op>" over iter, for the float32 and float64 the CPU computes
// most of these in (its message for other dtypes); entr, xlog1py and the
// incomplete gamma functions take the 16-bit floats too, as the CPU.
bool special(at::TensorIteratorBase& iter, const char* family, const char* op, bool sixteen_bit) {
  c10::ScalarType type = iter.common_dtype();
  TORCH_CHECK(type == at::kFloat || type == at::kDouble ||
                  (sixteen_bit && c10::isReducedFloatingType(type)),
              '"', op, "\" not implemented for '", c10::toString(type), "'");
  return pointwise(iter, family, op);
}

// name(x) and name_out(x, out) through "<family>.<kernel>" (name(a, b) and
// name_out(a, b, out) through "special_binary.<kernel>" below).
#define SPECIAL_UNARY(name, family, kernel, sixteen_bit)                         \
  bool name##_kernel(at::TensorIteratorBase& iter) {                             \
    return special(iter, family, #kernel, sixteen_bit);                          \
  }                                                                              \
  at::Tensor name(const at::Tensor& x) {                                         \
    return structured_functional<at::meta::structured_##name>(name##_kernel, x); \
  }                                                                              \
  at::Tensor& name##_out(const at::Tensor& x, at::Tensor& out) {                 \
    return structured_out<at::meta::structured_##name>(name##_kernel, out, x);   \
  }

#define SPECIAL_BINARY(name, kernel, sixteen_bit)                 \
  bool name##_kernel(at::TensorIteratorBase& iter) {              \
    return special(iter, "special_binary", #kernel, sixteen_bit); \
  }                                                               \
  TV_BINARY_FUNCTIONAL_OUT(name, structured_##name, name##_kernel)

SPECIAL_UNARY(special_bessel_j0, "special", bessel_j0, false)
SPECIAL_UNARY(special_bessel_j1, "special", bessel_j1, false)
SPECIAL_UNARY(special_bessel_y0, "special", bessel_y0, false)
SPECIAL_UNARY(special_bessel_y1, "special", bessel_y1, false)
SPECIAL_UNARY(special_modified_bessel_k0, "special", bessel_k0, false)
SPECIAL_UNARY(special_modified_bessel_k1, "special", bessel_k1, false)
SPECIAL_UNARY(special_scaled_modified_bessel_k0, "special", bessel_k0e, false)
SPECIAL_UNARY(special_scaled_modified_bessel_k1, "special", bessel_k1e, false)
SPECIAL_UNARY(special_spherical_bessel_j0, "special", spherical_bessel_j0, false)
SPECIAL_UNARY(special_airy_ai, "special", airy_ai, false)
SPECIAL_UNARY(special_entr, "special", entr, true)
SPECIAL_UNARY(special_erfcx, "special", erfcx, false)
SPECIAL_UNARY(special_log_ndtr, "special", log_ndtr, false)
// I0 and I1 are i0's and special_i1's functions, whose kernels already exist.
SPECIAL_UNARY(special_modified_bessel_i0, "unary", i0, false)
SPECIAL_UNARY(special_modified_bessel_i1, "unary", i1, false)

SPECIAL_BINARY(special_xlog1py, xlog1py, true)
SPECIAL_BINARY(special_zeta, zeta, false)
SPECIAL_BINARY(igamma, igamma, true)
SPECIAL_BINARY(igammac, igammac, true)
SPECIAL_BINARY(special_chebyshev_polynomial_t, chebyshev_t, false)
SPECIAL_BINARY(special_chebyshev_polynomial_u, chebyshev_u, false)
SPECIAL_BINARY(special_chebyshev_polynomial_v, chebyshev_v, false)
SPECIAL_BINARY(special_chebyshev_polynomial_w, chebyshev_w, false)
SPECIAL_BINARY(special_shifted_chebyshev_polynomial_t, shifted_chebyshev_t, false)
SPECIAL_BINARY(special_shifted_chebyshev_polynomial_u, shifted_chebyshev_u, false)
SPECIAL_BINARY(special_shifted_chebyshev_polynomial_v, shifted_chebyshev_v, false)
SPECIAL_BINARY(special_shifted_chebyshev_polynomial_w, shifted_chebyshev_w, false)
SPECIAL_BINARY(special_hermite_polynomial_h, hermite_h, false)
SPECIAL_BINARY(special_hermite_polynomial_he, hermite_he, false)
SPECIAL_BINARY(special_laguerre_polynomial_l, laguerre_l, false)
SPECIAL_BINARY(special_legendre_polynomial_p, legendre_p, false)

at::Tensor& igamma_(at::Tensor& a, const at::Tensor& x) {
  return structured_inplace<at::meta::structured_igamma>(igamma_kernel, a, x);
}
at::Tensor& igammac_(at::Tensor& a, const at::Tensor& x) {
  return structured_inplace<at::meta::structured_igammac>(igammac_kernel, a, x);
}

// d x / d alpha for samples x of Gamma(alpha): the backward of
// _standard_gamma (Gamma, Beta and Dirichlet rsample). Not a structured op,
// so it builds its own iterator; float32 and float64, as the CPU.
at::Tensor standard_gamma_grad(const at::Tensor& alpha, const at::Tensor& x) {
  at::Tensor out;
  auto iter = at::TensorIterator::binary_op(out, alpha, x);
  TORCH_INTERNAL_ASSERT(special(iter, "special_binary", "standard_gamma_grad", false));
  return iter.output();
}

// For x ~ Beta(alpha, total - alpha): the factor of Dirichlet's (and so
// Beta's) rsample backward. One dtype for all three, as the CPU.
at::Tensor dirichlet_grad(const at::Tensor& x, const at::Tensor& alpha, const at::Tensor& total) {
  TORCH_CHECK(x.scalar_type() == alpha.scalar_type() && x.scalar_type() == total.scalar_type(),
              "_dirichlet_grad: expected x, alpha and total of one dtype, got ", x.scalar_type(),
              ", ", alpha.scalar_type(), " and ", total.scalar_type());
  at::Tensor out;
  auto iter = at::TensorIteratorConfig()
                  .add_output(out)
                  .add_const_input(x)
                  .add_const_input(alpha)
                  .add_const_input(total)
                  .build();
  TORCH_INTERNAL_ASSERT(special(iter, "special_ternary", "dirichlet_grad", false));
  return iter.output();
}

}  // namespace

#define REGISTER_FUNCTIONAL_OUT(name) \
  m.impl(#name, name);                \
  m.impl(#name ".out", name##_out);

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  REGISTER_FUNCTIONAL_OUT(special_bessel_j0)
  REGISTER_FUNCTIONAL_OUT(special_bessel_j1)
  REGISTER_FUNCTIONAL_OUT(special_bessel_y0)
  REGISTER_FUNCTIONAL_OUT(special_bessel_y1)
  REGISTER_FUNCTIONAL_OUT(special_modified_bessel_i0)
  REGISTER_FUNCTIONAL_OUT(special_modified_bessel_i1)
  REGISTER_FUNCTIONAL_OUT(special_modified_bessel_k0)
  REGISTER_FUNCTIONAL_OUT(special_modified_bessel_k1)
  REGISTER_FUNCTIONAL_OUT(special_scaled_modified_bessel_k0)
  REGISTER_FUNCTIONAL_OUT(special_scaled_modified_bessel_k1)
  REGISTER_FUNCTIONAL_OUT(special_spherical_bessel_j0)
  REGISTER_FUNCTIONAL_OUT(special_airy_ai)
  REGISTER_FUNCTIONAL_OUT(special_entr)
  REGISTER_FUNCTIONAL_OUT(special_erfcx)
  REGISTER_FUNCTIONAL_OUT(special_log_ndtr)
  REGISTER_FUNCTIONAL_OUT(special_xlog1py)
  REGISTER_FUNCTIONAL_OUT(special_zeta)
  REGISTER_FUNCTIONAL_OUT(igamma)
  REGISTER_FUNCTIONAL_OUT(igammac)
  m.impl("igamma_", igamma_);
  m.impl("igammac_", igammac_);
  m.impl("_standard_gamma_grad", standard_gamma_grad);
  m.impl("_dirichlet_grad", dirichlet_grad);
  REGISTER_FUNCTIONAL_OUT(special_chebyshev_polynomial_t)
  REGISTER_FUNCTIONAL_OUT(special_chebyshev_polynomial_u)
  REGISTER_FUNCTIONAL_OUT(special_chebyshev_polynomial_v)
  REGISTER_FUNCTIONAL_OUT(special_chebyshev_polynomial_w)
  REGISTER_FUNCTIONAL_OUT(special_shifted_chebyshev_polynomial_t)
  REGISTER_FUNCTIONAL_OUT(special_shifted_chebyshev_polynomial_u)
  REGISTER_FUNCTIONAL_OUT(special_shifted_chebyshev_polynomial_v)
  REGISTER_FUNCTIONAL_OUT(special_shifted_chebyshev_polynomial_w)
  REGISTER_FUNCTIONAL_OUT(special_hermite_polynomial_h)
  REGISTER_FUNCTIONAL_OUT(special_hermite_polynomial_he)
  REGISTER_FUNCTIONAL_OUT(special_laguerre_polynomial_l)
  REGISTER_FUNCTIONAL_OUT(special_legendre_polynomial_p)
}

}  // namespace torchvulkan
