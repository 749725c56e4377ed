// Group norm as ATen's GroupNormKernel / GroupNormBackwardKernel stubs:
// ATen's native_group_norm(_backward) checks the arguments and sizes the
// outputs, as for CUDA; the
// kernels (shaders/norm/group_norm.comp) take one workgroup per (sample,
// group), and the weight and bias gradients one per channel.
#include <ATen/native/group_norm.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/native_group_norm_backward_native.h>
#include <ATen/ops/native_group_norm_native.h>
#include <torch/library.h>

#include <string>

#include "aten/ops/norm/channels.h"

namespace torchvulkan {
namespace {

using at::Tensor;

// Mirrors the push constants of shaders/norm/group_norm.comp.
struct Args {
  uint64_t shape, x, dy, weight, bias, target, mean, rstd, grad_weight, grad_bias, eps;
};

norm::Channels channels_of(const Tensor& X, int64_t N, int64_t C, int64_t group) {
  norm::Channels in = norm::channels(X, group);
  TORCH_CHECK(in.shape.n == N && in.shape.c == C, "group_norm: N=", N, " and C=", C,
              " do not match the input of size ", X.sizes());
  return in;
}

// `t` if it has the input's layout, else a tensor that does (copied back after).
Tensor in_layout(const norm::Channels& in, const Tensor& t) {
  return !t.defined() || t.strides() == in.x.strides() ? t : at::empty_like(in.x);
}

void launch(const char* op, Args& args, const norm::Channels& in, c10::ScalarType param,
            uint64_t workgroups, const std::vector<rt::Access>& accesses) {
  if (workgroups == 0) return;
  rt::Device& dev = device_for(in.x);
  std::string family = param == in.x.scalar_type() ? "group_norm." : "group_norm_mixed.";
  const rt::Kernel& kernel =
      dev.pipelines().get(family + op + "." + dtype_name(in.x.scalar_type()));
  dev.stream().dispatch(kernel, &args, sizeof(args), &in.shape, sizeof(in.shape),
                        workgroups * kernel.workgroup_size, accesses);
}

void group_norm_kernel(const Tensor& X, const Tensor& gamma, const Tensor& beta, int64_t N,
                       int64_t C, int64_t HxW, int64_t group, double eps, Tensor& Y, Tensor& mean,
                       Tensor& rstd) {
  norm::Channels in = channels_of(X, N, C, group);
  c10::ScalarType param = norm::param_dtype(X, gamma, beta);
  Tensor y = in_layout(in, Y);
  Args args{0,
            address_of(in.x),
            0,
            address_of(gamma),
            address_of(beta),
            address_of(y),
            address_of(mean),
            address_of(rstd),
            0,
            0,
            norm::acc_bits(eps, X)};
  std::vector<rt::Access> accesses;
  norm::access(accesses, in.x, false);
  norm::access(accesses, gamma, false);
  norm::access(accesses, beta, false);
  norm::access(accesses, y, true);
  norm::access(accesses, mean, true);
  norm::access(accesses, rstd, true);
  launch("forward", args, in, param, static_cast<uint64_t>(N * group), accesses);
  if (!y.is_same(Y)) Y.copy_(y);
}

void group_norm_backward_kernel(const Tensor& dY, const Tensor& X, const Tensor& mean,
                                const Tensor& rstd, const Tensor& gamma, int64_t N, int64_t C,
                                int64_t HxW, int64_t group, Tensor& dX, Tensor& dgamma,
                                Tensor& dbeta) {
  norm::Channels in = channels_of(X, N, C, group);
  c10::ScalarType param = norm::param_dtype(X, mean, rstd, gamma);
  Tensor dy = in.like(dY), dx = in_layout(in, dX);
  Args args{0,
            address_of(in.x),
            address_of(dy),
            address_of(gamma),
            0,
            address_of(dx),
            address_of(mean),
            address_of(rstd),
            address_of(dgamma),
            address_of(dbeta),
            0};
  std::vector<rt::Access> reads;
  for (const Tensor* t : std::initializer_list<const Tensor*>{&in.x, &dy, &gamma, &mean, &rstd}) {
    norm::access(reads, *t, false);
  }
  if (dx.defined()) {
    std::vector<rt::Access> accesses = reads;
    norm::access(accesses, dx, true);
    launch("backward", args, in, param, static_cast<uint64_t>(N * group), accesses);
  }
  if (dgamma.defined() || dbeta.defined()) {
    std::vector<rt::Access> accesses = reads;
    norm::access(accesses, dgamma, true);
    norm::access(accesses, dbeta, true);
    launch("param_backward", args, in, param, static_cast<uint64_t>(C), accesses);
  }
  if (dx.defined() && !dx.is_same(dX)) dX.copy_(dx);
}

// Off the CPU, ATen's native_group_norm(_backward) takes only contiguous
// tensors (as CUDA's kernels do); the CPU also takes channels last, and so
// do the kernels here, but a channels-last input reaches them as a copy.
std::tuple<Tensor, Tensor, Tensor> native_group_norm(const Tensor& X,
                                                     const std::optional<Tensor>& gamma,
                                                     const std::optional<Tensor>& beta, int64_t N,
                                                     int64_t C, int64_t HxW, int64_t group,
                                                     double eps) {
  TORCH_CHECK(X.is_contiguous(X.suggest_memory_format()),
              "Expected X.is_contiguous(memory_format) to be true, but got false.");
  return at::native::native_group_norm(X.contiguous(), gamma, beta, N, C, HxW, group, eps);
}

std::tuple<Tensor, Tensor, Tensor> native_group_norm_backward(
    const Tensor& dY, const Tensor& X, const Tensor& mean, const Tensor& rstd,
    const std::optional<Tensor>& gamma, int64_t N, int64_t C, int64_t HxW, int64_t group,
    std::array<bool, 3> mask) {
  return at::native::native_group_norm_backward(dY.contiguous(), X.contiguous(), mean, rstd, gamma,
                                                N, C, HxW, group, mask);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("native_group_norm", native_group_norm);
  m.impl("native_group_norm_backward", native_group_norm_backward);
}

}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(GroupNormKernel, &torchvulkan::group_norm_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(GroupNormBackwardKernel, &torchvulkan::group_norm_backward_kernel)
}  // namespace at::native
