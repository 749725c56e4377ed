// renorm: each slice along `dim` whose p-norm exceeds maxnorm scaled down to
// it, as the CPU computes it:
//   out = self * (norm > maxnorm ? maxnorm / (norm + 1e-7) : 1)
// the norm (native linalg_vector_norm) in float for 16-bit types, the
// factor rounded to self's type. ATen's meta checks the arguments.
#include <ATen/AccumulateType.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/linalg_vector_norm.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/renorm_meta.h>
#include <ATen/ops/where.h>
#include <torch/library.h>

#include <numeric>
#include <vector>

#include "aten/structured.h"

namespace torchvulkan {
namespace {

void renorm_into(const at::Tensor& self, const at::Scalar& p, int64_t dim,
                 const at::Scalar& maxnorm, const at::Tensor& out) {
  int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  std::vector<int64_t> reduce(self.dim());
  std::iota(reduce.begin(), reduce.end(), 0);
  reduce.erase(reduce.begin() + d);
  c10::ScalarType acc = at::toAccumulateType(self.scalar_type(), /*is_cuda=*/true);
  at::Tensor norm = at::linalg_vector_norm(self, p, reduce, /*keepdim=*/true, acc);
  double limit = maxnorm.toDouble();
  at::Tensor factor = at::where(norm > limit, limit / (norm + 1e-7), at::ones_like(norm));
  at::mul_out(const_cast<at::Tensor&>(out), self, factor.to(self.scalar_type()));
}

at::Tensor renorm(const at::Tensor& self, const at::Scalar& p, int64_t dim,
                  const at::Scalar& maxnorm) {
  Functional<at::meta::structured_renorm> meta;
  meta.meta(self, p, dim, maxnorm);
  renorm_into(self, p, dim, maxnorm, meta.outputs_[0]);
  return meta.outputs_[0];
}

at::Tensor& renorm_(at::Tensor& self, const at::Scalar& p, int64_t dim, const at::Scalar& maxnorm) {
  InPlace<at::meta::structured_renorm> meta(self);
  meta.meta(self, p, dim, maxnorm);
  renorm_into(self, p, dim, maxnorm, self);
  return self;
}

at::Tensor& renorm_out(const at::Tensor& self, const at::Scalar& p, int64_t dim,
                       const at::Scalar& maxnorm, at::Tensor& out) {
  Out<at::meta::structured_renorm> meta(out);
  meta.meta(self, p, dim, maxnorm);
  renorm_into(self, p, dim, maxnorm, out);
  return out;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("renorm", renorm);
  m.impl("renorm_", renorm_);
  m.impl("renorm.out", renorm_out);
}

}  // namespace torchvulkan
