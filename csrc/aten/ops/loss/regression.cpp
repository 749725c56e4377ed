// mse_loss, smooth_l1_loss and huber_loss with their backward ops, as ATen's
// DispatchStub kernels (mse_stub, smooth_l1_stub, huber_stub and their
// backward stubs): ATen's own native functions check the arguments, build
// the iterators and reduce (through the native mean and sum), as for CUDA;
// the kernels are the "loss.<op>" variants of shaders/loss/pointwise.comp.
#include <ATen/native/BinaryOps.h>
#include <ATen/native/PointwiseOps.h>
#include <ATen/ops/huber_loss_backward_native.h>
#include <ATen/ops/huber_loss_native.h>
#include <ATen/ops/mse_loss_backward_native.h>
#include <ATen/ops/mse_loss_native.h>
#include <ATen/ops/smooth_l1_loss_backward_native.h>
#include <ATen/ops/smooth_l1_loss_native.h>
#include <torch/library.h>

#include "aten/ops/loss/pointwise.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

using at::Tensor;
using loss::Params;

void mse_kernel(at::TensorIteratorBase& iter) {
  loss::launch(iter, "mse", [](auto) { return Params{}; });
}

void smooth_l1_kernel(at::TensorIteratorBase& iter, double beta) {
  loss::launch(iter, "smooth_l1", [=](c10::ScalarType t) { return Params{scalar_bits(beta, t)}; });
}

void huber_kernel(at::TensorIterator& iter, double delta) {
  loss::launch(iter, "huber", [=](c10::ScalarType t) { return Params{scalar_bits(delta, t)}; });
}

void mse_backward_kernel(at::TensorIterator& iter, const c10::Scalar& norm) {
  loss::launch(iter, "mse_backward",
               [=](c10::ScalarType t) { return Params{scalar_bits(norm, t)}; });
}

void smooth_l1_backward_kernel(at::TensorIterator& iter, const c10::Scalar& norm, double beta) {
  loss::launch(iter, "smooth_l1_backward", [=](c10::ScalarType t) {
    return Params{scalar_bits(norm, t), scalar_bits(beta, t)};
  });
}

void huber_backward_kernel(at::TensorIterator& iter, const c10::Scalar& norm, double delta) {
  loss::launch(iter, "huber_backward", [=](c10::ScalarType t) {
    return Params{scalar_bits(norm, t), scalar_bits(delta, t)};
  });
}

// The structured ops: ATen's meta and impl on vulkan outputs.
template <class Op, class... Args>
Tensor functional(const Args&... args) {
  Functional<Op> op;
  op.meta(args...);
  op.impl(args..., op.outputs_[0]);
  return op.outputs_[0];
}

template <class Op, class... Args>
Tensor& out(Tensor& result, const Args&... args) {
  Out<Op> op(result);
  op.meta(args...);
  op.impl(args..., result);
  return result;
}

Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return functional<at::native::structured_mse_loss_out>(self, target, reduction);
}
Tensor& mse_loss_out(const Tensor& self, const Tensor& target, int64_t reduction, Tensor& result) {
  return out<at::native::structured_mse_loss_out>(result, self, target, reduction);
}
Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction, double beta) {
  return functional<at::native::structured_smooth_l1_loss_out>(self, target, reduction, beta);
}
Tensor& smooth_l1_loss_out(const Tensor& self, const Tensor& target, int64_t reduction, double beta,
                           Tensor& result) {
  return out<at::native::structured_smooth_l1_loss_out>(result, self, target, reduction, beta);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("mse_loss", mse_loss);
  m.impl("mse_loss.out", mse_loss_out);
  m.impl("mse_loss_backward", at::native::mse_loss_backward);
  m.impl("mse_loss_backward.grad_input", at::native::mse_loss_backward_out);
  m.impl("smooth_l1_loss", smooth_l1_loss);
  m.impl("smooth_l1_loss.out", smooth_l1_loss_out);
  m.impl("smooth_l1_loss_backward.grad_input", at::native::smooth_l1_loss_backward_out);
  m.impl("huber_loss", at::native::huber_loss);
  m.impl("huber_loss.out", at::native::huber_loss_out);
  m.impl("huber_loss_backward.out", at::native::huber_loss_backward_out);
}

}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(mse_stub, &torchvulkan::mse_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(smooth_l1_stub, &torchvulkan::smooth_l1_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(huber_stub, &torchvulkan::huber_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(mse_backward_stub, &torchvulkan::mse_backward_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(smooth_l1_backward_stub, &torchvulkan::smooth_l1_backward_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(huber_backward_stub, &torchvulkan::huber_backward_kernel)
}  // namespace at::native
