#include "aten/context.h"

#include <c10/util/Exception.h>

namespace torchvulkan {
namespace {
thread_local c10::DeviceIndex current_index = 0;
}

c10::DeviceIndex current_device() {
  return current_index;
}

void set_current_device(c10::DeviceIndex index) {
  rt::Runtime& runtime = rt::Runtime::get();
  TORCH_CHECK(runtime.device_count() > 0, "torchvulkan: ", runtime.status());
  TORCH_CHECK(index >= 0 && index < runtime.device_count(),
              "torchvulkan: invalid device vulkan:", int(index), "; ", runtime.device_count(),
              " Vulkan device(s) available");
  current_index = index;
}

rt::Device& device(c10::DeviceIndex index) {
  rt::Runtime& runtime = rt::Runtime::get();
  int i = index < 0 ? current_index : index;
  TORCH_CHECK(runtime.device_count() > 0, "torchvulkan: ", runtime.status());
  TORCH_CHECK(i < runtime.device_count(), "torchvulkan: invalid device vulkan:", i, "; ",
              runtime.device_count(), " Vulkan device(s) available");
  return runtime.device(i);
}

rt::Device& device_for(const at::TensorBase& tensor) {
  TORCH_CHECK(tensor.device().type() == c10::DeviceType::PrivateUse1,
              "torchvulkan: expected a vulkan tensor, got ", tensor.device());
  return device(tensor.device().index());
}

namespace {
// Every tensor a kernel reads or writes passes through address_of or
// span_of: one with host memory (a CPU weight, target or index tensor next
// to vulkan inputs) is refused here, with the message CUDA gives, instead of
// handing the kernel a host pointer (on lavapipe, where device addresses are
// host addresses, a kernel writing through one corrupted the heap).
uint64_t device_address(const at::TensorBase& tensor) {
  TORCH_CHECK(tensor.device().type() == c10::DeviceType::PrivateUse1,
              "Expected all tensors to be on the same device, but found at least two devices, "
              "vulkan and ",
              tensor.device(), "!");
  return reinterpret_cast<uint64_t>(tensor.const_data_ptr());
}
}  // namespace

uint64_t address_of(const at::TensorBase& tensor) {
  return tensor.defined() ? device_address(tensor) : 0;
}

rt::Access span_of(const at::TensorBase& tensor, bool write) {
  uint64_t base = device_address(tensor);
  int64_t low = 0, high = 0;
  for (int64_t d = 0; d < tensor.dim(); ++d) {
    int64_t extent =
        (tensor.size(d) - 1) * tensor.stride(d) * static_cast<int64_t>(tensor.element_size());
    (extent < 0 ? low : high) += extent;
  }
  return {base + low, base + high + tensor.element_size(), write};
}

void raise_faults(rt::Device& dev) {
  uint32_t faults = dev.take_faults();
  TORCH_CHECK_INDEX(
      (faults & rt::Device::kFaultIndex) == 0, "torchvulkan: a kernel on ", dev.caps().name,
      " met an index out of range (indexing, gather, scatter, index_select, embedding, ...) ",
      "and skipped it: reads gave zero, writes were dropped. Reported at this synchronization; ",
      "the CPU raises at the call itself.");
  TORCH_CHECK((faults & rt::Device::kFaultValue) == 0, "torchvulkan: a sampling kernel on ",
              dev.caps().name,
              " was given a parameter outside its distribution's domain (a negative or NaN Poisson "
              "rate) and wrote NaN there. Reported at this synchronization; the CPU raises at the "
              "call itself.");
}

rt::Location locate(const at::TensorBase& tensor) {
  auto address = reinterpret_cast<uint64_t>(tensor.const_data_ptr());
  auto location = device_for(tensor).locate(address);
  TORCH_INTERNAL_ASSERT(location, "torchvulkan: tensor memory not owned by its device");
  return *location;
}

}  // namespace torchvulkan
