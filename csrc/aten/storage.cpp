// Storage resizing and the ops that re-point a tensor at storage
// (resize_, set_; is_set_to, ATen's host-side test, tells whether one did):
// device memory comes from the caching allocator and old contents move with
// a device copy.
#include "aten/storage.h"

#include <ATen/native/Resize.h>
#include <ATen/ops/is_set_to_native.h>
#include <torch/library.h>

#include <algorithm>

#include "aten/allocator.h"
#include "aten/context.h"

namespace torchvulkan {

void resize_storage_bytes(const c10::Storage& storage, size_t bytes) {
  TORCH_CHECK(storage.resizable(), "Trying to resize storage that is not resizable");
  c10::StorageImpl* impl = storage.unsafeGetStorageImpl();
  c10::DeviceGuard guard(impl->device());
  c10::DataPtr fresh = device_allocator()->allocate(bytes);
  size_t keep = std::min(bytes, impl->nbytes());
  if (keep > 0) device_allocator()->copy_data(fresh.get(), impl->data(), keep);
  impl->set_data_ptr_noswap(std::move(fresh));
  impl->set_nbytes(bytes);
}

void resize_tensor(at::TensorImpl* self, at::IntArrayRef size, at::OptionalIntArrayRef stride) {
  if (stride) {
    self->set_sizes_and_strides(size, *stride);
  } else {
    self->set_sizes_contiguous(size);
  }
  if (self->numel() == 0) return;
  size_t bytes = stride ? at::detail::computeStorageNbytes(size, *stride, self->dtype().itemsize(),
                                                           self->storage_offset())
                        : at::detail::computeStorageNbytesContiguous(size, self->dtype().itemsize(),
                                                                     self->storage_offset());
  const c10::Storage& storage = self->unsafe_storage();
  if (bytes > storage.nbytes()) resize_storage_bytes(storage, bytes);
}

namespace {

const at::Tensor& resize_(const at::Tensor& self, at::IntArrayRef size,
                          std::optional<at::MemoryFormat> memory_format) {
  resize_tensor(self.unsafeGetTensorImpl(), size, std::nullopt);
  if (memory_format && *memory_format != at::MemoryFormat::Preserve) {
    self.unsafeGetTensorImpl()->empty_tensor_restride(*memory_format);
  }
  return self;
}

at::Tensor& set_storage(at::Tensor& self, c10::Storage source, int64_t offset, at::IntArrayRef size,
                        at::IntArrayRef stride) {
  at::native::checkSetStorage(self, source, offset, size, stride);
  self.unsafeGetTensorImpl()->set_storage_offset(offset);
  at::OptionalIntArrayRef strides = stride.data() ? at::OptionalIntArrayRef(stride) : std::nullopt;
  resize_tensor(self.unsafeGetTensorImpl(), size, strides);
  return self;
}

at::Tensor& set_source_storage(at::Tensor& self, c10::Storage source) {
  int64_t numel = static_cast<int64_t>(source.nbytes() / self.dtype().itemsize());
  return set_storage(self, std::move(source), 0, {numel}, {});
}

at::Tensor& set_source_tensor(at::Tensor& self, const at::Tensor& source) {
  if (self.unsafeGetTensorImpl() == source.unsafeGetTensorImpl()) return self;
  return set_storage(self, source.storage(), source.storage_offset(), source.sizes(), source.strides());
}

at::Tensor& set_empty(at::Tensor& self) {
  c10::Storage storage(c10::Storage::use_byte_size_t(), 0, device_allocator(), true);
  return set_storage(self, std::move(storage), 0, {0}, {});
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("resize_", resize_);
  m.impl("set_.source_Storage_storage_offset", set_storage);
  m.impl("set_.source_Storage", set_source_storage);
  m.impl("set_.source_Tensor", set_source_tensor);
  m.impl("set_", set_empty);
  m.impl("is_set_to", at::native::is_set_to);
}

}  // namespace torchvulkan
