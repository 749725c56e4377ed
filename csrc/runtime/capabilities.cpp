#include "runtime/capabilities.h"

#include <algorithm>
#include <cstring>

namespace torchvulkan::rt {
namespace {

const char* type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "cpu";
    default:
      return "other";
  }
}

#ifdef VK_KHR_cooperative_matrix
const char* component_name(VkComponentTypeKHR type) {
  switch (type) {
    case VK_COMPONENT_TYPE_FLOAT16_KHR:
      return "float16";
    case VK_COMPONENT_TYPE_FLOAT32_KHR:
      return "float32";
    case VK_COMPONENT_TYPE_FLOAT64_KHR:
      return "float64";
    case VK_COMPONENT_TYPE_SINT8_KHR:
      return "int8";
    case VK_COMPONENT_TYPE_UINT8_KHR:
      return "uint8";
    case VK_COMPONENT_TYPE_SINT32_KHR:
      return "int32";
    case VK_COMPONENT_TYPE_UINT32_KHR:
      return "uint32";
#ifdef VK_KHR_shader_bfloat16
    case VK_COMPONENT_TYPE_BFLOAT16_KHR:
      return "bfloat16";
#endif
    default:
      return "other";
  }
}

const char* scope_name(VkScopeKHR scope) {
  switch (scope) {
    case VK_SCOPE_SUBGROUP_KHR:
      return "subgroup";
    case VK_SCOPE_WORKGROUP_KHR:
      return "workgroup";
    case VK_SCOPE_DEVICE_KHR:
      return "device";
    default:
      return "queue_family";
  }
}
#endif

}  // namespace

std::string Capabilities::unsupported_reason() const {
  if (api_version < VK_API_VERSION_1_2) return "needs Vulkan 1.2";
  if (!buffer_device_address) return "no bufferDeviceAddress";
  if (!timeline_semaphore) return "no timelineSemaphore";
  if (!int64) return "no shaderInt64";
  return "";
}

Capabilities query_capabilities(VkPhysicalDevice device) {
  Capabilities caps;

  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data());
  auto has = [&](const char* name) {
    return std::any_of(extensions.begin(), extensions.end(), [&](const VkExtensionProperties& e) {
      return std::strcmp(e.extensionName, name) == 0;
    });
  };
  caps.push_descriptor = has("VK_KHR_push_descriptor");
  caps.memory_budget = has("VK_EXT_memory_budget");
  caps.portability_subset = has("VK_KHR_portability_subset");
  // Detected by name: the Debian 12 headers predate these extensions' structs.
  caps.bfloat16 = has("VK_KHR_shader_bfloat16");
  caps.cooperative_matrix = has("VK_KHR_cooperative_matrix");
  caps.cooperative_matrix2 = has("VK_NV_cooperative_matrix2");

  VkPhysicalDeviceSubgroupProperties subgroup{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceMaintenance3Properties maintenance3{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES, &subgroup};
  VkPhysicalDeviceVulkan12Properties props12{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES, &maintenance3};
  VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES, &props12};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &id};
  vkGetPhysicalDeviceProperties2(device, &props);
  const VkPhysicalDeviceLimits& limits = props.properties.limits;
  caps.name = props.properties.deviceName;
  caps.device_type = type_name(props.properties.deviceType);
  caps.vendor_id = props.properties.vendorID;
  caps.device_id = props.properties.deviceID;
  caps.api_version = props.properties.apiVersion;
  caps.driver_version = props.properties.driverVersion;
  caps.driver_name = props12.driverName;
  caps.driver_info = props12.driverInfo;
  std::copy(std::begin(id.deviceUUID), std::end(id.deviceUUID), caps.uuid.begin());
  caps.subgroup_size = subgroup.subgroupSize;
  caps.max_shared_memory = limits.maxComputeSharedMemorySize;
  caps.max_workgroup_invocations = limits.maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; ++i) {
    caps.max_workgroup_size[i] = limits.maxComputeWorkGroupSize[i];
    caps.max_workgroup_count[i] = limits.maxComputeWorkGroupCount[i];
  }
  caps.max_push_constants = limits.maxPushConstantsSize;
  caps.max_allocation_size = maintenance3.maxMemoryAllocationSize;
  caps.min_storage_alignment = limits.minStorageBufferOffsetAlignment;
  caps.timestamp_period = limits.timestampPeriod;
  caps.preserves_inf_nan16 = props12.shaderSignedZeroInfNanPreserveFloat16;
  caps.preserves_inf_nan32 = props12.shaderSignedZeroInfNanPreserveFloat32;
  caps.preserves_inf_nan64 = props12.shaderSignedZeroInfNanPreserveFloat64;

  // Optional feature structs, chained where the device has their extension.
  void* optional = nullptr;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  if (has("VK_KHR_pipeline_executable_properties")) chain_front(optional, executable);
#ifdef VK_KHR_shader_bfloat16
  VkPhysicalDeviceShaderBfloat16FeaturesKHR bf16{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR};
  if (caps.bfloat16) chain_front(optional, bf16);
#endif
#ifdef VK_NV_cooperative_matrix2
  VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV};
  if (caps.cooperative_matrix2) chain_front(optional, coopmat2);
#endif
  VkPhysicalDeviceShaderClockFeaturesKHR clock{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
  if (has("VK_KHR_shader_clock")) chain_front(optional, clock);
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                       optional};
  VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11};
  vkGetPhysicalDeviceFeatures2(device, &features);
  caps.pipeline_statistics = executable.pipelineExecutableInfo;
  caps.shader_clock = clock.shaderSubgroupClock && clock.shaderDeviceClock;
  caps.float64 = features.features.shaderFloat64;
  caps.int64 = features.features.shaderInt64;
  caps.int16 = features.features.shaderInt16;
  caps.float16 = f12.shaderFloat16;
  caps.int8 = f12.shaderInt8;
  caps.storage8 = f12.storageBuffer8BitAccess;
  caps.storage16 = f11.storageBuffer16BitAccess;
  caps.int64_atomics = f12.shaderBufferInt64Atomics;
  caps.buffer_device_address = f12.bufferDeviceAddress;
  caps.timeline_semaphore = f12.timelineSemaphore;
  caps.vulkan_memory_model = f12.vulkanMemoryModel;

  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(device, &memory);
  for (uint32_t i = 0; i < memory.memoryHeapCount; ++i) {
    caps.heaps.push_back({memory.memoryHeaps[i].size,
                          (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0});
  }

#ifdef VK_KHR_cooperative_matrix
  if (caps.cooperative_matrix && vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR) {
    uint32_t n = 0;
    vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(device, &n, nullptr);
    std::vector<VkCooperativeMatrixPropertiesKHR> shapes(
        n, {VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR});
    vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(device, &n, shapes.data());
    for (const auto& s : shapes) {
      caps.cooperative_matrix_shapes.push_back({s.MSize, s.NSize, s.KSize, component_name(s.AType),
                                                component_name(s.CType), scope_name(s.scope)});
      auto tier_shape = [&](VkComponentTypeKHR input) {
        return s.MSize == 16 && s.NSize == 16 && s.KSize == 16 && s.AType == input &&
               s.BType == input && s.CType == VK_COMPONENT_TYPE_FLOAT32_KHR &&
               s.ResultType == VK_COMPONENT_TYPE_FLOAT32_KHR && s.scope == VK_SCOPE_SUBGROUP_KHR;
      };
      caps.coopmat_f16_16x16x16 |= tier_shape(VK_COMPONENT_TYPE_FLOAT16_KHR);
#ifdef VK_KHR_shader_bfloat16
      caps.coopmat_bf16_16x16x16 |= tier_shape(VK_COMPONENT_TYPE_BFLOAT16_KHR);
#endif
    }
  }
#endif
  caps.coopmat_f16_16x16x16 = caps.coopmat_f16_16x16x16 && caps.float16 &&
                              caps.vulkan_memory_model && caps.subgroup_size == 32;
#ifdef VK_KHR_shader_bfloat16
  // The bfloat16 kernels are the float16 ones with another element type.
  caps.coopmat_bf16_16x16x16 = caps.coopmat_bf16_16x16x16 && caps.coopmat_f16_16x16x16 &&
                               bf16.shaderBFloat16Type && bf16.shaderBFloat16CooperativeMatrix;
#endif
#ifdef VK_NV_cooperative_matrix2
  // Its kernels are SPIR-V 1.6, which needs Vulkan 1.3.
  caps.coopmat2 = caps.coopmat_f16_16x16x16 && caps.api_version >= VK_API_VERSION_1_3 &&
                  coopmat2.cooperativeMatrixWorkgroupScope &&
                  coopmat2.cooperativeMatrixTensorAddressing;
#endif
  return caps;
}

}  // namespace torchvulkan::rt
