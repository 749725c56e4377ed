// Copies between host and device and within a device.
//
// Host -> device never blocks the host: small payloads travel inside the
// command buffer (vkCmdUpdateBuffer), larger ones through pinned staging
// memory that is recycled once the copy has run. Pinned sources are read in
// place. Device -> host waits for the copy, except a non_blocking copy into
// pinned memory, which (as in CUDA) returns at once.
#include "aten/copy.h"

#include <ATen/MemoryOverlap.h>
#include <ATen/TensorIterator.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_strided.h>
#include <ATen/ops/view_as_real.h>
#include <torch/library.h>

#include <cstring>

#include "aten/allocator.h"
#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan {
namespace {

constexpr uint64_t kInlineUpload = 65536;  // vkCmdUpdateBuffer's limit

bool is_vulkan(const at::Tensor& t) {
  return t.device().type() == c10::DeviceType::PrivateUse1;
}

// Same dtype, same layout, one dense block of memory.
bool same_dense_layout(const at::Tensor& a, const at::Tensor& b) {
  return a.dtype() == b.dtype() && a.sizes() == b.sizes() && a.strides() == b.strides() &&
         a.is_non_overlapping_and_dense();
}

// A kernel, even for dense same-dtype copies: vkCmdCopyBuffer moves only a
// fifth of the bandwidth on the H200 (docs/measurements.md).
void copy_within_device(const at::Tensor& dst, const at::Tensor& src) {
  if (at::get_overlap_status(dst, src) == at::MemOverlapStatus::Full) return;
  at::assert_no_internal_overlap(dst);
  at::assert_no_partial_overlap(dst, src);
  if (dst.is_complex() && src.is_complex()) {
    // Complex values move as pairs of reals.
    copy_within_device(at::view_as_real(dst), at::view_as_real(src));
    return;
  }
  auto iter = at::TensorIteratorConfig()
                  .add_output(dst)
                  .add_const_input(src)
                  .resize_outputs(false)
                  .check_all_same_dtype(false)
                  .build();
  if (iter.numel() == 0) return;
  std::string kernel = src.scalar_type() == dst.scalar_type()
                           ? "copy_bits." + std::to_string(dst.element_size())
                           : std::string("convert.") + dtype_name(src.scalar_type()) + "." +
                                 dtype_name(dst.scalar_type());
  launch_elementwise(kernel, iter);
}

// Host bytes -> a dense device tensor.
void upload(const at::Tensor& dst, const void* host, uint64_t bytes, bool non_blocking) {
  rt::Device& dev = device_for(dst);
  rt::Location to = locate(dst);
  rt::Access write = span_of(dst, true);
  if (auto pinned = dev.host().locate(host)) {
    uint64_t value = dev.stream().copy(
        pinned->buffer, pinned->offset, to.buffer, to.offset, bytes,
        {reinterpret_cast<uint64_t>(host), reinterpret_cast<uint64_t>(host) + bytes, false}, write);
    dev.host().record_use(host, value);
    // Pageable semantics for a blocking copy: the caller may reuse the memory at once.
    if (!non_blocking) dev.stream().wait(value);
    return;
  }
  if (bytes <= kInlineUpload && bytes % 4 == 0 && to.offset % 4 == 0) {
    dev.stream().update(to.buffer, to.offset, host, bytes, write);
    return;
  }
  void* staging = dev.host().allocate(bytes);
  std::memcpy(staging, host, bytes);
  auto s = reinterpret_cast<uint64_t>(staging);
  rt::Location from = *dev.host().locate(staging);
  uint64_t value = dev.stream().copy(from.buffer, from.offset, to.buffer, to.offset, bytes,
                                     {s, s + bytes, false}, write);
  dev.host().record_use(staging, value);
  dev.host().free(staging);
}

void host_to_device(const at::Tensor& dst, const at::Tensor& src, bool non_blocking) {
  // Conversions happen on the host, with the CPU's exact semantics.
  at::Tensor host = src.to(dst.scalar_type()).contiguous();
  at::Tensor target = dst.is_contiguous() ? dst : at::empty(dst.sizes(), dst.options());
  upload(target, host.const_data_ptr(), host.nbytes(), non_blocking);
  if (!target.is_same(dst)) copy_within_device(dst, target);
}

void device_to_host(const at::Tensor& dst, const at::Tensor& src, bool non_blocking) {
  rt::Device& dev = device_for(src);
  at::Tensor dense = src.is_non_overlapping_and_dense() ? src : src.contiguous();
  if (!dense.is_same(src)) copy_within_device(dense, src);
  uint64_t bytes = dense.nbytes();
  rt::Location from = locate(dense);
  rt::Access read = span_of(dense, false);

  // Straight into pinned memory: no staging, and no wait when non_blocking.
  if (same_dense_layout(dst, dense)) {
    if (auto pinned = dev.host().locate(dst.data_ptr())) {
      auto d = reinterpret_cast<uint64_t>(dst.data_ptr());
      uint64_t value = dev.stream().copy(from.buffer, from.offset, pinned->buffer, pinned->offset,
                                         bytes, read, {d, d + bytes, true});
      dev.host().record_use(dst.data_ptr(), value);
      if (non_blocking) {
        dev.stream().flush();
      } else {
        dev.stream().wait(value);
        raise_faults(dev);
      }
      return;
    }
  }
  at::Tensor host =
      at::empty_strided(dense.sizes(), dense.strides(), dense.options().device(c10::kCPU));
  if (from.mapped) {
    // Host-visible device memory (lavapipe, unified memory): read it in place once idle.
    dev.stream().synchronize();
    raise_faults(dev);
    std::memcpy(host.data_ptr(), from.mapped, bytes);
  } else {
    void* staging = dev.host().allocate(bytes);
    rt::Location to = *dev.host().locate(staging);
    auto s = reinterpret_cast<uint64_t>(staging);
    uint64_t value = dev.stream().copy(from.buffer, from.offset, to.buffer, to.offset, bytes, read,
                                       {s, s + bytes, true});
    dev.host().record_use(staging, value);
    dev.stream().wait(value);
    std::memcpy(host.data_ptr(), staging, bytes);
    dev.host().free(staging);
    raise_faults(dev);
  }
  dst.copy_(host);
}

}  // namespace

void copy(const at::Tensor& dst, const at::Tensor& source, bool non_blocking) {
  if (dst.numel() == 0) return;
  // Cross-device copy_ reaches here before ATen broadcasts: do it as copy_ does.
  const at::Tensor src = source.sizes() == dst.sizes() ? source : source.expand(dst.sizes());
  if (is_vulkan(dst) && is_vulkan(src)) {
    if (dst.device() == src.device()) {
      if (src.is_complex() != dst.is_complex()) {
        // Complex <-> real conversions run on the host (complex math is CPU-only).
        at::Tensor host = src.cpu();
        host_to_device(dst, host, non_blocking);
        return;
      }
      copy_within_device(dst, src);
    } else {
      host_to_device(dst, src.cpu(), non_blocking);  // across devices through the host
    }
  } else if (is_vulkan(dst)) {
    host_to_device(dst, src, non_blocking);
  } else {
    device_to_host(dst, src, non_blocking);
  }
}

namespace {

at::Tensor copy_from(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
  copy(dst, self, non_blocking);
  return dst;
}

at::Tensor copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
  if (dst.sizes() != self.sizes()) dst.resize_(self.sizes());
  copy(dst, self, false);
  return dst;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_copy_from", copy_from);
  m.impl("_copy_from_and_resize", copy_from_and_resize);
}

}  // namespace torchvulkan
