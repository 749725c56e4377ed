// tensor.item(): one element back to the host.
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

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) { m.impl("_local_scalar_dense", local_scalar_dense); }

}  // namespace torchvulkan
