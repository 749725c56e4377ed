// put_: self's elements at `index` (positions in its row-major order,
// negative ones from the end) set to, or with accumulate increased by,
// source's. A native index_put_ on the flattened tensor (a contiguous copy,
// written back, where self is not contiguous). take is ATen's composite.
#include <ATen/ops/index_put.h>
#include <torch/library.h>

namespace torchvulkan {
namespace {

at::Tensor& put_(at::Tensor& self, const at::Tensor& index, const at::Tensor& source,
                 bool accumulate) {
  TORCH_CHECK_INDEX(index.scalar_type() == at::kLong,
                    "put_(): Expected a long tensor for index, but got ", index.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(),
              "put_(): self and source expected to have the same dtype, but got self.dtype = ",
              self.scalar_type(), " and source.dtype = ", source.scalar_type());
  TORCH_CHECK(index.numel() == source.numel(),
              "put_(): Expected source and index to have the same number of elements, but got "
              "source.numel() = ",
              source.numel(), ", index.numel() = ", index.numel());
  if (index.numel() == 0) return self;
  TORCH_CHECK_INDEX(self.numel() > 0, "put_(): Tried to put elements into an empty tensor");
  bool in_place = self.is_contiguous();
  at::Tensor flat = (in_place ? self : self.contiguous()).view(-1);
  flat.index_put_({index.reshape(-1)}, source.reshape(-1), accumulate);
  if (!in_place) self.copy_(flat.view(self.sizes()));
  return self;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("put_", put_);
}

}  // namespace torchvulkan
