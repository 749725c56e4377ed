// PyTorch's PrivateUse1 hooks: availability, devices, generators, pinned memory.
#include <ATen/detail/PrivateUse1HooksInterface.h>
#include <c10/core/Storage.h>
#include <c10/util/CallOnce.h>

#include <algorithm>

#include "aten/allocator.h"
#include "aten/context.h"
#include "aten/generator.h"
#include "aten/hooks.h"
#include "aten/storage.h"

namespace torchvulkan {
namespace {

class Hooks final : public at::PrivateUse1HooksInterface {
 public:
  bool isBuilt() const override { return true; }
  bool isAvailable() const override { return rt::Runtime::get().device_count() > 0; }
  void init() const override { rt::Runtime::get(); }
  c10::DeviceIndex deviceCount() const override {
    return static_cast<c10::DeviceIndex>(rt::Runtime::get().device_count());
  }
  void setCurrentDevice(c10::DeviceIndex index) const override { set_current_device(index); }
  c10::DeviceIndex getCurrentDevice() const override { return current_device(); }
  c10::DeviceIndex exchangeDevice(c10::DeviceIndex index) const override {
    c10::DeviceIndex old = current_device();
    set_current_device(index);
    return old;
  }
  c10::DeviceIndex maybeExchangeDevice(c10::DeviceIndex index) const override { return exchangeDevice(index); }
  bool hasPrimaryContext(c10::DeviceIndex index) const override {
    auto opened = rt::Runtime::get().opened();
    return std::any_of(opened.begin(), opened.end(), [&](rt::Device* d) { return d->index() == index; });
  }
  const at::Generator& getDefaultGenerator(c10::DeviceIndex index) const override {
    return default_generator(index);
  }
  at::Generator getNewGenerator(c10::DeviceIndex index) const override {
    return at::make_generator<GeneratorImpl>(index < 0 ? current_device() : index);
  }
  at::Device getDeviceFromPtr(void* data) const override {
    for (rt::Device* dev : rt::Runtime::get().opened()) {
      if (dev->memory().locate(reinterpret_cast<uint64_t>(data))) {
        return {c10::DeviceType::PrivateUse1, static_cast<c10::DeviceIndex>(dev->index())};
      }
    }
    TORCH_CHECK(false, "torchvulkan: pointer ", data, " is not vulkan device memory");
  }
  bool isPinnedPtr(const void* data) const override { return is_pinned(data); }
  at::Allocator* getPinnedMemoryAllocator() const override { return pinned_allocator(); }
  void resizePrivateUse1Bytes(const c10::Storage& storage, size_t bytes) const override {
    resize_storage_bytes(storage, bytes);
  }
};

}  // namespace

void register_hooks() {
  static c10::once_flag once;
  c10::call_once(once, [] { at::RegisterPrivateUse1HooksInterface(new Hooks()); });
}

}  // namespace torchvulkan
