// Tensor creation and views: metadata on the CPU, memory from the caching allocator.
#include <ATen/EmptyTensor.h>
#include <ATen/native/Resize.h>
#include <ATen/native/TensorFactories.h>
#include <ATen/ops/_make_dep_token_native.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/view_as_complex_native.h>
#include <ATen/ops/view_as_real_native.h>
#include <ATen/ops/view_native.h>
#include <c10/core/DeviceGuard.h>
#include <torch/library.h>

#include <map>
#include <memory>
#include <mutex>

#include "aten/allocator.h"
#include "aten/context.h"

namespace torchvulkan {
namespace {

c10::DispatchKeySet vulkan_keys() {
  return c10::DispatchKeySet(c10::DispatchKey::PrivateUse1);
}

void check_dtype(c10::ScalarType dtype, c10::DeviceIndex index) {
  if (dtype == c10::ScalarType::Double || dtype == c10::ScalarType::ComplexDouble) {
    const rt::Device& dev = device(index);
    TORCH_CHECK(dev.caps().float64, "torchvulkan: ", dev.caps().name,
                " has no float64 support (shaderFloat64); use float32 on this device");
  }
}

c10::DeviceIndex index_of(std::optional<c10::Device> where) {
  return where && where->has_index() ? where->index() : current_device();
}

at::Tensor empty(at::IntArrayRef size, std::optional<c10::ScalarType> dtype,
                 std::optional<c10::Layout> layout, std::optional<c10::Device> where,
                 std::optional<bool> pin_memory, std::optional<c10::MemoryFormat> memory_format) {
  c10::DeviceIndex index = index_of(where);
  c10::DeviceGuard guard(c10::Device(c10::DeviceType::PrivateUse1, index));
  auto type = c10::dtype_or_default(dtype);
  check_dtype(type, index);
  TORCH_CHECK(!pin_memory || !*pin_memory, "torchvulkan: only CPU tensors can be pinned");
  return at::detail::empty_generic(size, device_allocator(), vulkan_keys(), type, memory_format);
}

at::Tensor empty_strided(at::IntArrayRef size, at::IntArrayRef stride,
                         std::optional<c10::ScalarType> dtype, std::optional<c10::Layout> layout,
                         std::optional<c10::Device> where, std::optional<bool> pin_memory) {
  c10::DeviceIndex index = index_of(where);
  c10::DeviceGuard guard(c10::Device(c10::DeviceType::PrivateUse1, index));
  auto type = c10::dtype_or_default(dtype);
  check_dtype(type, index);
  return at::detail::empty_strided_generic(size, stride, device_allocator(), vulkan_keys(), type);
}

// A tensor of zeros without memory, marked ZeroTensor so that ops read it
// as zeros (autograd's zero tangents, forward-mode AD): CUDA's factory with
// this device's key. Each device's allocator lives as long as the process,
// since a storage keeps a pointer to its allocator.
at::Tensor efficient_zero_tensor(at::IntArrayRef size, std::optional<c10::ScalarType> dtype,
                                 std::optional<c10::Layout> layout,
                                 std::optional<c10::Device> where, std::optional<bool> pin_memory) {
  static std::mutex mutex;
  static std::map<c10::DeviceIndex, std::unique_ptr<at::native::ZeroTensorAllocator>> allocators;
  c10::DeviceIndex index = index_of(where);
  auto type = c10::dtype_or_default(dtype);
  check_dtype(type, index);
  at::native::ZeroTensorAllocator* allocator;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto& slot = allocators[index];
    if (!slot)
      slot = std::make_unique<at::native::ZeroTensorAllocator>(
          c10::Device(c10::DeviceType::PrivateUse1, index));
    allocator = slot.get();
  }
  return at::detail::empty_generic(
      size, allocator, vulkan_keys() | c10::DispatchKeySet(c10::DispatchKey::ZeroTensor), type,
      std::nullopt);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", empty);
  m.impl("_efficientzerotensor", efficient_zero_tensor);
  // torch.compile's dependency token: an empty 0-dim tensor, through
  // at::empty with the device asked for (ATen's CPU form is that call).
  m.impl("_make_dep_token", at::native::_make_dep_token_cpu);
  m.impl("empty_strided", empty_strided);
  m.impl("as_strided", at::native::as_strided_tensorimpl);
  m.impl("view", at::native::view);
  m.impl("_reshape_alias", at::native::_reshape_alias);
  m.impl("view_as_real", at::native::view_as_real);
  m.impl("view_as_complex", at::native::view_as_complex);
}

}  // namespace torchvulkan
