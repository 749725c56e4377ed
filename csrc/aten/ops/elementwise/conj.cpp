// conj_physical as ATen's DispatchStub kernel: ATen's own conj_physical.out
// and conj_physical_ build the unary iterator (dtype checks, resizing),
// then call it. conj(x) = re(x) - i im(x): a copy, and for complex dtypes
// the imaginary parts negated.
#include <ATen/TensorIterator.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/ops/conj_physical_native.h>
#include <ATen/ops/view_as_real.h>
#include <torch/library.h>

namespace torchvulkan {
namespace {

void conj_physical_kernel(at::TensorIteratorBase& iter) {
  const at::Tensor& out = iter.output();
  out.copy_(iter.input());
  if (out.is_complex()) at::view_as_real(out).select(-1, 1).neg_();
}

}  // namespace
}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(conj_physical_stub, &torchvulkan::conj_physical_kernel)
}  // namespace at::native

namespace torchvulkan {

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("conj_physical.out", at::native::conj_physical_out);
}

}  // namespace torchvulkan
