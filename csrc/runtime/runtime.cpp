#include "runtime/runtime.h"

#ifndef _WIN32
#include <pthread.h>
#endif

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/error.h"

namespace torchvulkan::rt {
namespace {

constexpr const char* kInstallHint =
    "Install a Vulkan driver: on Debian/Ubuntu `apt install libvulkan1 mesa-vulkan-drivers` "
    "(Mesa's lavapipe runs on the CPU), or your GPU vendor's driver.";

int type_rank(const std::string& type) {
  if (type == "discrete") return 0;
  if (type == "integrated") return 1;
  if (type == "virtual") return 2;
  if (type == "cpu") return 3;
  return 4;
}

bool has_layer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  return std::any_of(layers.begin(), layers.end(), [&](const VkLayerProperties& l) {
    return std::strcmp(l.layerName, name) == 0;
  });
}

bool has_instance_extension(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data());
  return std::any_of(extensions.begin(), extensions.end(), [&](const VkExtensionProperties& e) {
    return std::strcmp(e.extensionName, name) == 0;
  });
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return text;
}

}  // namespace

std::atomic<bool> Runtime::opened_any_{false}, Runtime::bad_fork_{false};

Runtime& Runtime::get() {
  static Runtime* runtime = new Runtime();  // never destroyed: drivers may unload first at exit
  return *runtime;
}

VKAPI_ATTR VkBool32 VKAPI_CALL Runtime::on_validation(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* self = static_cast<Runtime*>(user);
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    self->validation_messages_.fetch_add(1);
    std::fprintf(stderr, "[torchvulkan validation] %s\n", data->pMessage);
  }
  return VK_FALSE;
}

Runtime::Runtime() {
#ifndef _WIN32  // no fork() there
  pthread_atfork(nullptr, nullptr, [] {
    if (opened_any_.load()) bad_fork_.store(true);
  });
#endif
  if (volkInitialize() != VK_SUCCESS) {
    status_ = std::string(
                  "no Vulkan driver was found: the Vulkan loader (libvulkan) is not installed. ") +
              kInstallHint;
    return;
  }
  uint32_t loader_version = volkGetInstanceVersion();
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "torchvulkan";
  app.pEngineName = "torchvulkan";
  app.apiVersion = loader_version >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;

  std::vector<const char*> layers, extensions;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  if (has_instance_extension(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);  // lists MoltenVK
    info.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }
  const char* validation = std::getenv("TORCHVULKAN_VALIDATION");
  if (validation && std::strcmp(validation, "0") != 0) {
    if (has_layer("VK_LAYER_KHRONOS_validation") &&
        has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
      layers.push_back("VK_LAYER_KHRONOS_validation");
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      validation_ = true;
    } else {
      std::fprintf(
          stderr,
          "torchvulkan: TORCHVULKAN_VALIDATION is set but the Khronos validation layer is not "
          "installed (Debian: vulkan-validationlayers)\n");
    }
  }
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkResult result = vkCreateInstance(&info, nullptr, &instance_);
  if (result != VK_SUCCESS) {
    status_ = std::string("no Vulkan driver was found (vkCreateInstance: ") + result_name(result) +
              "). " + kInstallHint;
    return;
  }
  volkLoadInstance(instance_);

  if (validation_) {
    VkDebugUtilsMessengerCreateInfoEXT messenger{
        VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger.pfnUserCallback = &Runtime::on_validation;
    messenger.pUserData = this;
    check(vkCreateDebugUtilsMessengerEXT(instance_, &messenger, nullptr, &messenger_),
          "vkCreateDebugUtilsMessengerEXT");
  }

  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance_, &count, nullptr);
  std::vector<VkPhysicalDevice> all(count);
  vkEnumeratePhysicalDevices(instance_, &count, all.data());
  std::vector<std::pair<VkPhysicalDevice, Capabilities>> usable;
  std::string skipped;
  for (VkPhysicalDevice device : all) {
    Capabilities caps = query_capabilities(device);
    if (std::string why = caps.unsupported_reason(); !why.empty()) {
      skipped += " '" + caps.name + "' (" + why + ")";
      continue;
    }
    usable.emplace_back(device, std::move(caps));
  }
  std::stable_sort(usable.begin(), usable.end(), [](const auto& a, const auto& b) {
    return type_rank(a.second.device_type) < type_rank(b.second.device_type);
  });

  // TORCHVULKAN_DEVICE picks one device: an index into the ordered list or part of its name.
  if (const char* choice = std::getenv("TORCHVULKAN_DEVICE"); choice && *choice) {
    std::string wanted = choice;
    bool numeric = std::all_of(wanted.begin(), wanted.end(), ::isdigit);
    std::vector<std::pair<VkPhysicalDevice, Capabilities>> picked;
    for (size_t i = 0; i < usable.size(); ++i) {
      bool match = numeric ? std::to_string(i) == wanted
                           : lower(usable[i].second.name).find(lower(wanted)) != std::string::npos;
      if (match && picked.empty()) picked.push_back(usable[i]);
    }
    if (picked.empty())
      status_ = "TORCHVULKAN_DEVICE=" + wanted + " matches none of the " +
                std::to_string(usable.size()) + " Vulkan device(s)";
    usable = std::move(picked);
  }
  for (auto& [device, caps] : usable) {
    physical_.push_back(device);
    caps_.push_back(std::move(caps));
  }
  devices_.resize(physical_.size());
  if (physical_.empty() && status_.empty()) {
    status_ = count == 0 ? std::string("no Vulkan driver was found: the loader sees no device. ") +
                               kInstallHint
                         : "no Vulkan device is usable by torchvulkan:" + skipped;
  }
}

void Runtime::check_index(int index) const {
  if (physical_.empty()) throw Error("torchvulkan: " + status_);
  if (index < 0 || index >= device_count()) {
    throw Error("torchvulkan: invalid device vulkan:" + std::to_string(index) + "; " +
                std::to_string(device_count()) + " Vulkan device(s) available");
  }
}

const Capabilities& Runtime::capabilities(int index) const {
  check_index(index);
  return caps_[index];
}

Device& Runtime::device(int index) {
  if (bad_fork_.load()) {
    throw Error(
        "torchvulkan: cannot use a Vulkan device in a forked subprocess whose parent had opened "
        "one; use the 'spawn' start method with multiprocessing (DataLoader: "
        "multiprocessing_context='spawn') to use Vulkan in subprocesses");
  }
  check_index(index);
  std::lock_guard<std::mutex> lock(mutex_);
  if (!devices_[index]) {
    devices_[index] = std::make_unique<Device>(index, physical_[index], caps_[index]);
    opened_any_.store(true);
  }
  return *devices_[index];
}

std::vector<Device*> Runtime::opened() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Device*> out;
  for (auto& device : devices_) {
    if (device) out.push_back(device.get());
  }
  return out;
}

}  // namespace torchvulkan::rt
