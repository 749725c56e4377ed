// max_unpool2d and max_unpool3d (functional and out=): zeros with each input
// value written at its index in its plane of the output (max pooling's
// indices), a native scatter over the [N, C, positions] planes. The arguments are checked as
// the CPU checks them. An index outside its plane is skipped and raised at
// the next synchronization (shaders/common/fault.glsl), where the CPU raises
// at once.
// Gradients go through ATen's formula (a gather at the same indices).
#include <ATen/ops/zeros.h>
#include <c10/util/irange.h>
#include <torch/library.h>

#include <vector>

#include "aten/out.h"

namespace torchvulkan {
namespace {

at::Tensor unpool(const at::Tensor& self, const at::Tensor& indices, at::IntArrayRef output_size,
                  int64_t spatial) {
  std::vector<int64_t> sizes(self.sizes().begin(), self.sizes().end() - spatial);
  sizes.insert(sizes.end(), output_size.begin(), output_size.end());
  int64_t n = self.dim() == spatial + 2 ? self.size(0) : 1, c = self.size(-spatial - 1);
  at::Tensor planes = at::zeros({n, c, c10::multiply_integers(output_size)}, self.options());
  if (planes.numel() != 0 && self.numel() != 0)
    planes.scatter_(2, indices.reshape({n, c, -1}), self.reshape({n, c, -1}));
  at::Tensor out = planes.view(sizes);
  return spatial == 2 ? out.contiguous(self.suggest_memory_format()) : out;
}

void check_common(const at::Tensor& self, const at::Tensor& indices, int64_t spatial,
                  const char* name) {
  TORCH_CHECK(indices.scalar_type() == at::kLong,
              "elements in indices should be type int64 but got: ", indices.scalar_type());
  TORCH_CHECK(self.dim() == spatial + 1 || self.dim() == spatial + 2, "Input to ", name,
              " should be a ", spatial + 1, "d or ", spatial + 2,
              "d Tensor, but got a tensor with ", self.dim(), " dimensions.");
  TORCH_CHECK(self.sizes() == indices.sizes(),
              "Expected shape of indices to be same as that of the input tensor (", self.sizes(),
              ") but got indices tensor with shape: ", indices.sizes());
  for (const auto i : c10::irange(1, self.dim())) {
    TORCH_CHECK(
        self.size(i) > 0, name,
        "_forward_out(): Expected input to have non-zero size for non-batch dimensions, but got ",
        self.sizes(), " with dimension ", i, " being empty.");
  }
}

at::Tensor max_unpool2d(const at::Tensor& self, const at::Tensor& indices,
                        at::IntArrayRef output_size) {
  TORCH_CHECK(output_size.size() == 2,
              "There should be exactly two elements (height, width) in output_size, but got ",
              output_size.size(), " elements.");
  check_common(self, indices, 2, "max_unpooling2d");
  return unpool(self, indices, output_size, 2);
}

at::Tensor max_unpool3d(const at::Tensor& self, const at::Tensor& indices,
                        at::IntArrayRef output_size, at::IntArrayRef stride,
                        at::IntArrayRef padding) {
  TORCH_CHECK(
      output_size.size() == 3,
      "There should be exactly three elements (depth, height, width) in output_size, but got ",
      output_size.size(), " elements.");
  TORCH_CHECK(stride.size() == 3,
              "There should be exactly three elements (depth, height, width) in stride, but got: ",
              stride.size(), " elements.");
  TORCH_CHECK(padding.size() == 3,
              "There should be exactly three elements (depth, height, width) in padding, but got: ",
              padding.size(), " elements.");
  TORCH_CHECK(stride[0] > 0 && stride[1] > 0 && stride[2] > 0,
              "strides should be greater than zero, but got stride: ", stride);
  check_common(self, indices, 3, "max_unpooling3d");
  return unpool(self, indices, output_size, 3);
}

at::Tensor& max_unpool2d_out(const at::Tensor& self, const at::Tensor& indices,
                             at::IntArrayRef output_size, at::Tensor& out) {
  return write_out(torchvulkan::max_unpool2d(self, indices, output_size), out);
}

at::Tensor& max_unpool3d_out(const at::Tensor& self, const at::Tensor& indices,
                             at::IntArrayRef output_size, at::IntArrayRef stride,
                             at::IntArrayRef padding, at::Tensor& out) {
  return write_out(torchvulkan::max_unpool3d(self, indices, output_size, stride, padding), out);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("max_unpool2d", max_unpool2d);
  m.impl("max_unpool2d.out", max_unpool2d_out);
  m.impl("max_unpool3d", max_unpool3d);
  m.impl("max_unpool3d.out", max_unpool3d_out);
}

}  // namespace torchvulkan
