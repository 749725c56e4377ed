#include "runtime/device.h"

#include <atomic>
#include <vector>

#include "runtime/error.h"
#include "runtime/half_probe.h"

namespace torchvulkan::rt {

Device::Device(int index, VkPhysicalDevice physical, Capabilities caps)
    : index_(index), physical_(physical), caps_(std::move(caps)) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, families.data());
  uint32_t family = UINT32_MAX;
  for (uint32_t i = 0; i < count && family == UINT32_MAX; ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family = i;
  }
  if (family == UINT32_MAX)
    throw Error("torchvulkan: device '" + caps_.name + "' has no compute queue");

  // Enable every optional feature the device has that some kernel may use.
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  f12.bufferDeviceAddress = VK_TRUE;
  f12.timelineSemaphore = VK_TRUE;
  f12.shaderInt8 = caps_.int8;
  f12.shaderFloat16 = caps_.float16;
  f12.storageBuffer8BitAccess = caps_.storage8;
  f12.shaderBufferInt64Atomics = caps_.int64_atomics;
  f12.vulkanMemoryModel =
      caps_.coopmat_f16_16x16x16;  // the cooperative-matrix kernels' memory model
  VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12};
  f11.storageBuffer16BitAccess = caps_.storage16;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11};
  features.features.shaderInt64 = VK_TRUE;
  features.features.shaderInt16 = caps_.int16;
  features.features.shaderFloat64 = caps_.float64;
#ifdef VK_KHR_cooperative_matrix
  VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR};
  coopmat.cooperativeMatrix = VK_TRUE;
  if (caps_.coopmat_f16_16x16x16) chain_front(features.pNext, coopmat);
#endif
#ifdef VK_KHR_shader_bfloat16
  VkPhysicalDeviceShaderBfloat16FeaturesKHR bf16{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR};
  bf16.shaderBFloat16Type = VK_TRUE;
  bf16.shaderBFloat16CooperativeMatrix = VK_TRUE;
  if (caps_.coopmat_bf16_16x16x16) chain_front(features.pNext, bf16);
#endif
#ifdef VK_NV_cooperative_matrix2
  VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV};
  coopmat2.cooperativeMatrixWorkgroupScope = VK_TRUE;
  coopmat2.cooperativeMatrixTensorAddressing = VK_TRUE;
  if (caps_.coopmat2) chain_front(features.pNext, coopmat2);
#endif
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  executable.pipelineExecutableInfo = VK_TRUE;
  if (caps_.pipeline_statistics) chain_front(features.pNext, executable);

  VkPhysicalDeviceShaderClockFeaturesKHR clock{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
  clock.shaderSubgroupClock = VK_TRUE;
  clock.shaderDeviceClock = VK_TRUE;
  if (caps_.shader_clock) chain_front(features.pNext, clock);

  std::vector<const char*> extensions;
  // MoltenVK and other non-conformant drivers require this one to be enabled.
  if (caps_.portability_subset) extensions.push_back("VK_KHR_portability_subset");
  if (caps_.memory_budget) extensions.push_back("VK_EXT_memory_budget");
  if (caps_.coopmat_f16_16x16x16) extensions.push_back("VK_KHR_cooperative_matrix");
  if (caps_.coopmat_bf16_16x16x16) extensions.push_back("VK_KHR_shader_bfloat16");
  if (caps_.coopmat2) extensions.push_back("VK_NV_cooperative_matrix2");
  if (caps_.pipeline_statistics) extensions.push_back("VK_KHR_pipeline_executable_properties");
  if (caps_.shader_clock) extensions.push_back("VK_KHR_shader_clock");

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  check(vkCreateDevice(physical_, &info, nullptr, &device_), "vkCreateDevice");
  vkGetDeviceQueue(device_, family, 0, &queue_);

  // Tensors: device-local memory, preferably not the host-visible window.
  uint32_t device_type = find_memory_type(physical_, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0,
                                          VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  // Pinned host memory: host-visible and coherent, cached for fast reads back.
  uint32_t host_type = find_memory_type(
      physical_, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
      VK_MEMORY_PROPERTY_HOST_CACHED_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  // Kernel parameters: written by the host, read by every workgroup.
  uint32_t params_type = find_memory_type(
      physical_, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
  if (device_type == UINT32_MAX || host_type == UINT32_MAX || params_type == UINT32_MAX) {
    throw Error("torchvulkan: device '" + caps_.name + "' lacks a usable memory type");
  }
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory);
  const VkMemoryType& type = memory.memoryTypes[device_type];
  bool mappable = type.propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;

  pipelines_ = std::make_unique<Pipelines>(device_, caps_);
  // The fault word lives in host memory (the pinned type), which the host
  // reads cached at every synchronization, not in the device-local window
  // the parameters use: reads of that window cross PCIe uncached.
  fault_ = create_buffer(device_, host_type, 16, true);
  *static_cast<uint32_t*>(fault_.mapped) = 0;
  pipelines_->set_fault_address(fault_.address);
  stream_ = std::make_unique<Stream>(device_, queue_, family, families[family].timestampValidBits,
                                     caps_, pipelines_->layout(), params_type);
  memory_ =
      std::make_unique<MemoryPool>(device_, device_type, memory.memoryHeaps[type.heapIndex].size,
                                   caps_.max_allocation_size, mappable, [this] { synchronize(); });
  host_ = std::make_unique<HostPool>(device_, host_type, [this] { return stream_->completed(); });
  native_half_ = probe_native_half(*pipelines_, *stream_, *memory_, *host_);
}

Device::~Device() {
  stream_.reset();  // waits for the queue
  host_.reset();
  memory_.reset();
  pipelines_.reset();
  destroy_buffer(device_, fault_);
  vkDestroyDevice(device_, nullptr);
}

uint32_t Device::take_faults() {
  return std::atomic_ref<uint32_t>(*static_cast<uint32_t*>(fault_.mapped)).exchange(0);
}

std::optional<Location> Device::locate(uint64_t address) {
  if (auto location = memory_->locate(address)) return location;
  return host_->locate(reinterpret_cast<const void*>(address));
}

void Device::empty_cache() {
  memory_->empty_cache();
  host_->empty_cache();
}

}  // namespace torchvulkan::rt
