// torch.nn.utils.weight_norm's fused op and its backward, as native
// reductions and elementwise ops: with n = ||v|| over every dimension but
// `dim` (over all of v for dim = -1),
//   w = g * v / n,   grad_g = sum(grad_w * v) / n,
//   grad_v = (g / n) * (grad_w - v * grad_g / n)
// The norms are float32 for 16-bit weights, as CUDA keeps them.
#include <ATen/TensorOperators.h>
#include <ATen/ops/linalg_vector_norm.h>
#include <ATen/ops/sum.h>
#include <torch/library.h>

#include <vector>

namespace torchvulkan {
namespace {

// The dimensions the norm runs over.
std::vector<int64_t> other_dims(const at::Tensor& v, int64_t dim) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < v.dim(); ++d)
    if (dim == -1 || d != dim) dims.push_back(d);
  return dims;
}

c10::ScalarType norm_type(const at::Tensor& v) {
  return v.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
}

std::tuple<at::Tensor, at::Tensor> weight_norm(const at::Tensor& v, const at::Tensor& g, int64_t dim) {
  TORCH_CHECK(dim == -1 || (dim >= 0 && dim < v.dim()), "weight_norm: dim ", dim, " is out of range for a ", v.dim(),
              "-D weight");
  at::Tensor norms = at::linalg_vector_norm(v, 2, other_dims(v, dim), /*keepdim=*/true, norm_type(v));
  at::Tensor w = (v * (g.to(norms.scalar_type()) / norms)).to(v.scalar_type());
  return {w, norms.view(g.sizes())};
}

std::tuple<at::Tensor, at::Tensor> weight_norm_backward(const at::Tensor& grad_w, const at::Tensor& saved_v,
                                                        const at::Tensor& saved_g, const at::Tensor& saved_norms,
                                                        int64_t dim) {
  c10::ScalarType acc = norm_type(saved_v);
  std::vector<int64_t> dims = other_dims(saved_v, dim);
  std::vector<int64_t> keep(saved_v.dim(), 1);
  if (dim != -1) keep[dim] = saved_v.size(dim);
  at::Tensor v = saved_v.to(acc), norms = saved_norms.to(acc).view(keep), g = saved_g.to(acc).view(keep);
  at::Tensor grad = grad_w.to(acc);
  at::Tensor grad_g = at::sum(grad * v, dims, /*keepdim=*/true) / norms;
  at::Tensor grad_v = (g / norms) * (grad - v * (grad_g / norms));
  return {grad_v.to(saved_v.scalar_type()), grad_g.view(saved_g.sizes()).to(saved_g.scalar_type())};
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_weight_norm_interface", weight_norm);
  m.impl("_weight_norm_interface_backward", weight_norm_backward);
}

}  // namespace torchvulkan
