// The matrix exponential, as native matrix products:
//   _compute_linear_combination(input, c)[i] = sum_j c[i, j] input[j]
//     (the .out form adds to out, as ATen's does);
//   linalg_matrix_exp(A) = T18(A / 2^s)^(2^s), T18 the degree-18 Taylor
//     approximant of Bader, Blanes and Casas ("Computing the Matrix
//     Exponential with an Optimized Taylor Polynomial Approximation",
//     Mathematics 2019) and s the fewest halvings that bring A's 1-norm
//     within theta_18.
// ATen's own linalg_matrix_exp cannot serve this device: it leaves its
// coefficient tables on the host for every device but CUDA. This is the path
// it takes for a batch of matrices; for a single one it picks a cheaper
// approximant when the norm allows, which agrees to rounding.
#include <ATen/Context.h>
#include <ATen/TensorOperators.h>
#include <ATen/native/LinearAlgebraUtils.h>
#include <ATen/ops/_compute_linear_combination.h>
#include <ATen/ops/eye.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/where.h>
#include <torch/library.h>

#include <vector>

namespace torchvulkan {
namespace {

// coefficients @ input over input's leading dimension, in input's dtype.
at::Tensor combine(const at::Tensor& input, const at::Tensor& coefficients) {
  // bool has no matrix product; an int32 one is nonzero where any term is true.
  c10::ScalarType type = input.scalar_type() == at::kBool ? at::kInt : input.scalar_type();
  int64_t n = input.size(0);
  at::Tensor flat = input.reshape({n, n == 0 ? 0 : input.numel() / n}).to(type);
  std::vector<int64_t> sizes = input.sizes().vec();
  sizes[0] = coefficients.size(0);
  return at::mm(coefficients.to(type), flat).view(sizes).to(input.scalar_type());
}

at::Tensor compute_linear_combination(const at::Tensor& input, const at::Tensor& coefficients) {
  TORCH_CHECK(input.dim() > 0 && input.numel() > 0, "Empty tensor not supported");
  return combine(input, coefficients);
}

at::Tensor& compute_linear_combination_out(const at::Tensor& input, const at::Tensor& coefficients,
                                           at::Tensor& out) {
  at::Tensor sum = combine(input, coefficients);
  TORCH_CHECK(out.sizes() == sum.sizes(), "output with shape ", out.sizes(),
              " doesn't match the broadcast shape ", sum.sizes());
  return out.add_(sum);
}

// The approximant's coefficients b, rows for B0..B4 over {I, A, A^2, A^3, A^6}.
constexpr double kTaylor18[5][5] = {
    {0., -1.00365581030144618291e-01, -8.02924648241156932449e-03, -8.92138498045729985177e-04, 0.},
    {0., 3.97849749499645077844e-01, 1.36783778460411720168e+00, 4.98289622525382669416e-01,
     -6.37898194594723280150e-04},
    {-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
     -6.98210122488052056106e-03, 3.34975017086070470649e-05},
    {-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
     2.95552570429315521194e-02, -1.39180257516060693404e-05},
    {0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02,
     -1.40086798182036094347e-05}};

// T18(A) = B1 + (B2 + A9) A9 with A9 = B0 B4 + B3: six products where the
// plain polynomial takes seventeen.
at::Tensor taylor_18(const at::Tensor& a) {
  at::Tensor a2 = at::matmul(a, a);
  at::Tensor a3 = at::matmul(a, a2);
  at::Tensor identity = at::eye(a.size(-1), a.options()).expand_as(a);
  at::Tensor powers = at::stack({identity, a, a2, a3, at::matmul(a3, a3)});
  at::Tensor b = at::from_blob(const_cast<double*>(&kTaylor18[0][0]), {5, 5}, at::kDouble);
  at::Tensor bs = at::_compute_linear_combination(powers, b.to(a.options()));
  at::Tensor a9 = at::matmul(bs[0], bs[4]) + bs[3];
  return bs[1] + at::matmul(bs[2] + a9, a9);
}

// `a`: a batch of n x n matrices, n >= 2.
at::Tensor scale_and_square(const at::Tensor& a) {
  // theta_18 in float32 and in float64, as ATen's.
  double theta = a.scalar_type() == at::kFloat ? double(3.010066362817634f) : 1.090863719290036;
  at::Tensor norm = a.abs().sum(-2).amax(-1);
  // A NaN or infinite norm takes no squaring: its result is NaN either way.
  at::Tensor s = norm.div(theta).log2().ceil().clamp_min(0).nan_to_num(0, 0);
  at::Tensor e = taylor_18(a * s.neg().exp2().view({-1, 1, 1}));
  int64_t squarings = s.max().item<int64_t>();
  for (int64_t k = 0; k < squarings; ++k) {
    e = at::where((s > k).view({-1, 1, 1}), at::matmul(e, e), e);
  }
  return e;
}

at::Tensor linalg_matrix_exp(const at::Tensor& a) {
  at::native::squareCheckInputs(a, "linalg.matrix_exp");
  at::native::checkFloatingOrComplex(a, "matrix_exp");
  // Reduced-precision float32 products would cost the approximant its accuracy.
  at::NoTF32Guard disable_tf32;
  int64_t n = a.size(-1);
  if (a.numel() == 0) return a.clone();
  if (n == 1) return a.exp();
  at::Tensor batch = a.reshape({-1, n, n});
  // 16-bit inputs compute in float32: the squarings would spread their
  // rounding error across all digits.
  bool low_precision = a.scalar_type() == at::kHalf || a.scalar_type() == at::kBFloat16;
  at::Tensor e = scale_and_square(low_precision ? batch.to(at::kFloat) : batch);
  return e.to(a.scalar_type()).view(a.sizes());
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_compute_linear_combination", compute_linear_combination);
  m.impl("_compute_linear_combination.out", compute_linear_combination_out);
  m.impl("linalg_matrix_exp", linalg_matrix_exp);
}

}  // namespace torchvulkan
