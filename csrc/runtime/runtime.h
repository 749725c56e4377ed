#pragma once
// The process-wide Vulkan instance and the devices torchvulkan can use.
//
// Nothing here throws at start-up: with no loader, no driver or no usable
// device, device_count() is 0 and status() says why; device(i) then throws.
#include <volk.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/capabilities.h"
#include "runtime/device.h"

namespace torchvulkan::rt {

class Runtime {
 public:
  static Runtime& get();

  int device_count() const { return static_cast<int>(physical_.size()); }
  // Why there are no devices ("" when there are some).
  const std::string& status() const { return status_; }
  const Capabilities& capabilities(int index) const;
  // Opens the device on first use. Throws Error for a bad index or no driver.
  Device& device(int index);
  // Devices opened so far (for synchronize/empty_cache on all of them).
  std::vector<Device*> opened();
  // True in a process forked after its parent opened a device: the parent's
  // device (and its stream's submitting thread) do not exist there, so
  // device() throws instead of hanging, as CUDA refuses a forked child.
  static bool in_bad_fork() { return bad_fork_.load(); }

  bool validation_enabled() const { return validation_; }
  uint64_t validation_messages() const { return validation_messages_.load(); }

 private:
  Runtime();
  void check_index(int index) const;
  static VKAPI_ATTR VkBool32 VKAPI_CALL on_validation(
      VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT type,
      const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  bool validation_ = false;
  std::atomic<uint64_t> validation_messages_{0};
  std::string status_;
  std::vector<VkPhysicalDevice> physical_;
  std::vector<Capabilities> caps_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Device>> devices_;
  static std::atomic<bool> opened_any_, bad_fork_;
};

}  // namespace torchvulkan::rt
