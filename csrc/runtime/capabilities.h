#pragma once
// What a physical device can do, read once when the device is opened.
#include <volk.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace torchvulkan::rt {

struct MemoryHeap {
  uint64_t size = 0;
  bool device_local = false;
};

struct CooperativeMatrixShape {
  uint32_t m = 0, n = 0, k = 0;
  std::string a_type, c_type;  // e.g. "float16", "float32"
  std::string scope;           // "subgroup", "workgroup", ...
};

struct Capabilities {
  std::string name;
  std::string driver_name;
  std::string driver_info;
  std::string device_type;  // "discrete", "integrated", "virtual", "cpu", "other"
  uint32_t vendor_id = 0, device_id = 0;
  uint32_t api_version = 0, driver_version = 0;
  std::array<uint8_t, 16> uuid{};
  std::vector<MemoryHeap> heaps;

  uint32_t subgroup_size = 0;
  uint32_t max_shared_memory = 0;
  uint32_t max_workgroup_invocations = 0;
  std::array<uint32_t, 3> max_workgroup_size{};
  std::array<uint32_t, 3> max_workgroup_count{};
  uint32_t max_push_constants = 0;
  uint64_t max_allocation_size = 0;
  uint64_t min_storage_alignment = 0;
  float timestamp_period = 0;  // nanoseconds per timestamp tick

  // Arithmetic and storage support per type.
  bool float16 = false, bfloat16 = false, float64 = false;
  bool int8 = false, int16 = false, int64 = false;
  bool storage8 = false, storage16 = false;
  bool int64_atomics = false;
  // Baseline requirements of this runtime.
  bool buffer_device_address = false, timeline_semaphore = false;
  bool push_descriptor = false, memory_budget = false, portability_subset = false;
  bool cooperative_matrix = false, cooperative_matrix2 = false;
  std::vector<CooperativeMatrixShape> cooperative_matrix_shapes;
  bool vulkan_memory_model = false;
  // SignedZeroInfNanPreserve may be declared for 16-, 32- and 64-bit floats
  // (runtime/float_controls.h).
  bool preserves_inf_nan16 = false, preserves_inf_nan32 = false, preserves_inf_nan64 = false;
  // VK_KHR_pipeline_executable_properties: the driver reports per-pipeline
  // compiler statistics (registers, spills, shared memory, ...).
  bool pipeline_statistics = false;
  // The shape the tensor-core GEMM tier is written for: float16 A and B,
  // float32 accumulators, 16x16x16, subgroup scope, subgroups of 32.
  bool coopmat_f16_16x16x16 = false;
  // The same with bfloat16 A and B (VK_KHR_shader_bfloat16's
  // shaderBFloat16CooperativeMatrix; only where the headers the package was
  // built with declare that extension).
  bool coopmat_bf16_16x16x16 = false;
  // VK_NV_cooperative_matrix2's workgroup-scope matrices loaded and stored
  // through tensor layouts (gemm_coop2.comp), beside coopmat_f16_16x16x16;
  // only where the headers the package was built with declare it.
  bool coopmat2 = false;
  // VK_KHR_shader_clock with both clocks (gemm_coop_phases' stamps).
  bool shader_clock = false;

  // Empty when the device can run torchvulkan, else why not.
  std::string unsupported_reason() const;
};

Capabilities query_capabilities(VkPhysicalDevice device);

// Puts a Vulkan feature struct at the front of the pNext chain starting at
// `head` (the optional structs that querying and enabling features take).
template <class Struct>
void chain_front(void*& head, Struct& s) {
  s.pNext = head;
  head = &s;
}

}  // namespace torchvulkan::rt
