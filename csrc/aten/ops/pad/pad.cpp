// Reflection and replication padding over one to three dimensions, forward
// and backward (shaders/pad/pad.comp: each element written gathers what it
// reads, so the backward needs no atomics). ATen's meta functions check the
// arguments and size the outputs where the ops are structured; for
// reflection_pad2d and the 2-D and 3-D backwards that are not, the CPU's
// checks and messages are repeated here. F.pad's "reflect" and "replicate"
// modes reach these.
#include <ATen/native/Padding.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/reflection_pad1d_backward_meta.h>
#include <ATen/ops/reflection_pad1d_meta.h>
#include <ATen/ops/reflection_pad3d_backward_meta.h>
#include <ATen/ops/reflection_pad3d_meta.h>
#include <ATen/ops/replication_pad1d_backward_meta.h>
#include <ATen/ops/replication_pad1d_meta.h>
#include <ATen/ops/replication_pad2d_meta.h>
#include <ATen/ops/replication_pad3d_meta.h>
#include <torch/library.h>

#include <vector>

#include "aten/ops/volume.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

// forward reads input_side and writes output_side; backward reads
// grad_output (the output side) and writes grad_input.
void pad(bool forward, bool reflect, const at::Tensor& input_side, const at::Tensor& output_side,
         at::IntArrayRef padding) {
  c10::ScalarType type = input_side.scalar_type();
  TORCH_CHECK_NOT_IMPLEMENTED(forward ? at::isFloatingType(type) || at::isIntegralType(type, false)
                                      : at::isFloatingType(type),
                              "\"", reflect ? "reflection" : "replication", "_pad",
                              forward ? "" : "_backward", "\" not implemented for '",
                              c10::toString(type), "'");
  // padding: (before, after) per dimension, the last dimension first.
  int64_t dims = static_cast<int64_t>(padding.size()) / 2;
  std::vector<int64_t> extra(3, 0);
  for (int64_t d = 0; d < dims; ++d) extra[2 - d] = padding[2 * d];
  extra.push_back(reflect);
  // Unbatched [C, spatial...] as one batch.
  auto batched = [dims](const at::Tensor& t) { return t.dim() == dims + 1 ? t.unsqueeze(0) : t; };
  launch_volume(forward ? "pad.forward" : "pad.backward", forward, batched(input_side),
                batched(output_side), extra);
}

template <class Meta, bool reflect>
at::Tensor padded(const at::Tensor& self, at::IntArrayRef padding) {
  Functional<Meta> meta;
  meta.meta(self, padding);
  pad(true, reflect, self, meta.outputs_[0], padding);
  return meta.outputs_[0];
}

template <class Meta, bool reflect>
at::Tensor& padded_out(const at::Tensor& self, at::IntArrayRef padding, at::Tensor& out) {
  Out<Meta> meta(out);
  meta.meta(self, padding);
  pad(true, reflect, self, out, padding);
  return out;
}

template <class Meta, bool reflect>
at::Tensor pad_backward(const at::Tensor& grad_output, const at::Tensor& self,
                        at::IntArrayRef padding) {
  Functional<Meta> meta;
  meta.meta(grad_output, self, padding);
  pad(false, reflect, meta.outputs_[0], grad_output, padding);
  return meta.outputs_[0];
}

template <class Meta, bool reflect>
at::Tensor& pad_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                             at::IntArrayRef padding, at::Tensor& grad_input) {
  Out<Meta> meta(grad_input);
  meta.meta(grad_output, self, padding);
  pad(false, reflect, grad_input, grad_output, padding);
  return grad_input;
}

// The padded sizes of `input` over its last `dims` dimensions, checked as
// the CPU checks reflection_pad2d (reflect) and the replication backwards.
std::vector<int64_t> padded_sizes(const at::Tensor& input, at::IntArrayRef padding, int64_t dims,
                                  bool reflect) {
  if (dims == 2) {
    at::native::padding::check_valid_input<2>(input, padding);
  } else {
    at::native::padding::check_valid_input<3>(input, padding);
  }
  std::vector<int64_t> sizes = input.sizes().vec();
  for (int64_t d = 0; d < dims; ++d) {
    int64_t dim = input.dim() - 1 - d, before = padding[2 * d], after = padding[2 * d + 1];
    TORCH_CHECK(
        !reflect || (before < input.size(dim) && after < input.size(dim)), "Argument #", 4 + 2 * d,
        ": Padding size should be less than the corresponding input dimension, but got: padding (",
        before, ", ", after, ") at dimension ", dim, " of input ", input.sizes());
    sizes[dim] += before + after;
    TORCH_CHECK(sizes[dim] >= 1, "input ", input.sizes(), " is too small. Calculated output size ",
                sizes[dim], " at dimension ", dim);
  }
  return sizes;
}

at::Tensor& reflection_pad2d_out(const at::Tensor& self, at::IntArrayRef padding, at::Tensor& out) {
  at::native::resize_output(out, padded_sizes(self, padding, 2, true));
  pad(true, true, self, out, padding);
  return out;
}

at::Tensor reflection_pad2d(const at::Tensor& self, at::IntArrayRef padding) {
  at::Tensor out = at::empty(padded_sizes(self, padding, 2, true),
                             self.options().memory_format(self.suggest_memory_format()));
  pad(true, true, self, out, padding);
  return out;
}

// The backwards that are not structured: grad_input has self's shape, and
// grad_output the padded one.
template <int64_t dims, bool reflect>
at::Tensor& unstructured_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                      at::IntArrayRef padding, at::Tensor& grad_input) {
  std::vector<int64_t> expected = padded_sizes(self, padding, dims, reflect);
  TORCH_CHECK(grad_output.sizes() == at::IntArrayRef(expected),
              "grad_output sizes unexpected. Expected: ", at::IntArrayRef(expected),
              ", Got: ", grad_output.sizes());
  at::native::resize_output(grad_input, self.sizes());
  pad(false, reflect, grad_input, grad_output, padding);
  return grad_input;
}

template <int64_t dims, bool reflect>
at::Tensor unstructured_backward(const at::Tensor& grad_output, const at::Tensor& self,
                                 at::IntArrayRef padding) {
  at::Tensor grad_input = at::empty_like(self, self.suggest_memory_format());
  return unstructured_backward_out<dims, reflect>(grad_output, self, padding, grad_input);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, lib) {
  lib.impl("reflection_pad1d", padded<m::structured_reflection_pad1d, true>);
  lib.impl("reflection_pad1d.out", padded_out<m::structured_reflection_pad1d, true>);
  lib.impl("reflection_pad1d_backward",
           pad_backward<m::structured_reflection_pad1d_backward, true>);
  lib.impl("reflection_pad1d_backward.grad_input",
           pad_backward_out<m::structured_reflection_pad1d_backward, true>);
  lib.impl("reflection_pad2d", reflection_pad2d);
  lib.impl("reflection_pad2d.out", reflection_pad2d_out);
  lib.impl("reflection_pad2d_backward", unstructured_backward<2, true>);
  lib.impl("reflection_pad2d_backward.grad_input", unstructured_backward_out<2, true>);
  lib.impl("reflection_pad3d", padded<m::structured_reflection_pad3d, true>);
  lib.impl("reflection_pad3d.out", padded_out<m::structured_reflection_pad3d, true>);
  lib.impl("reflection_pad3d_backward",
           pad_backward<m::structured_reflection_pad3d_backward, true>);
  lib.impl("reflection_pad3d_backward.grad_input",
           pad_backward_out<m::structured_reflection_pad3d_backward, true>);
  lib.impl("replication_pad1d", padded<m::structured_replication_pad1d, false>);
  lib.impl("replication_pad1d.out", padded_out<m::structured_replication_pad1d, false>);
  lib.impl("replication_pad1d_backward",
           pad_backward<m::structured_replication_pad1d_backward, false>);
  lib.impl("replication_pad1d_backward.grad_input",
           pad_backward_out<m::structured_replication_pad1d_backward, false>);
  lib.impl("replication_pad2d", padded<m::structured_replication_pad2d, false>);
  lib.impl("replication_pad2d.out", padded_out<m::structured_replication_pad2d, false>);
  lib.impl("replication_pad2d_backward", unstructured_backward<2, false>);
  lib.impl("replication_pad2d_backward.grad_input", unstructured_backward_out<2, false>);
  lib.impl("replication_pad3d", padded<m::structured_replication_pad3d, false>);
  lib.impl("replication_pad3d.out", padded_out<m::structured_replication_pad3d, false>);
  lib.impl("replication_pad3d_backward", unstructured_backward<3, false>);
  lib.impl("replication_pad3d_backward.grad_input", unstructured_backward_out<3, false>);
}

}  // namespace torchvulkan
