// tensor.item(): one element back to the host; and _assert_async, which
// ATen's composites (multinomial, ...) use to check a value they computed on
// the device, with its functional form (torch.compile's runtime asserts:
// the check, then a clone of the dependency token). CUDA asserts on the
// device; here ATen's CPU forms read the value through item(), so they wait
// for the device.
#include <ATen/ops/_assert_async_native.h>
#include <ATen/ops/_functional_assert_async_native.h>
#include <ATen/ops/empty.h>
#include <torch/library.h>

#include "aten/copy.h"

namespace torchvulkan {
namespace {

c10::Scalar local_scalar_dense(const at::Tensor& self) {
  at::Tensor host = at::empty(self.sizes(), self.options().device(c10::kCPU));
  copy(host, self, false);
  return host.item();
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_local_scalar_dense", local_scalar_dense);
  m.impl("_assert_async", at::native::_assert_async_cpu);
  m.impl("_assert_async.msg", at::native::_assert_async_msg_cpu);
  m.impl("_functional_assert_async.msg", at::native::_functional_assert_async_msg_cpu);
}

}  // namespace torchvulkan
