#pragma once
// Compute pipelines for the embedded kernels, created on first use and kept
// for the life of the device. A VkPipelineCache saved in the user's cache
// folder lets the next process skip the driver's shader compilation.
#include <volk.h>

#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/capabilities.h"
#include "runtime/float_controls.h"

namespace torchvulkan::rt {

struct Kernel {
  VkPipeline pipeline = VK_NULL_HANDLE;
  uint32_t workgroup_size = 0;
  std::string name;  // the variant's, as in kernel_names()
};

struct EmbeddedKernel;

// One compiler statistic of one executable (stage) of a pipeline, as the
// driver names it (NVIDIA: "Register Count", ...; Mesa: "SSA values", ...).
struct PipelineStatistic {
  std::string executable, name, value;
};

class Pipelines {
 public:
  // Every kernel shares one layout: push constants only, no descriptor sets
  // (tensors are passed as buffer device addresses).
  static constexpr uint32_t kPushConstantBytes = 128;

  Pipelines(VkDevice device, const Capabilities& caps);
  ~Pipelines();

  // Throws Error if the kernel was not built or needs a feature the device lacks.
  const Kernel& get(std::string_view name);
  bool available(std::string_view name);
  VkPipelineLayout layout() const { return layout_; }
  // Specialization constant 1 of every kernel: the driver's float -> half
  // conversion rounds exactly (see half_probe.h). Takes effect for pipelines
  // created afterwards.
  void set_native_half(bool native) { native_half_ = native ? VK_TRUE : VK_FALSE; }
  // Specialization constants 2 and 3 of the kernels that report faults
  // (shaders/common/fault.glsl): the device address of the word they set.
  // Set before the first pipeline is created.
  void set_fault_address(uint64_t address) { fault_address_ = address; }
  void save_cache();
  // The driver's compiler statistics for a kernel, from a pipeline built
  // for the question (so the pipelines in use never pay for the capture).
  // Empty when the device lacks VK_KHR_pipeline_executable_properties.
  std::vector<PipelineStatistic> statistics(std::string_view name);
  // The float widths whose infinities, NaNs and signed zeros the kernel's
  // module, as this device gets it, declares preserved (float_controls.h).
  std::vector<uint32_t> preserved_widths(std::string_view name) const;

 private:
  const EmbeddedKernel& find_usable(std::string_view name) const;
  VkPipeline create(const EmbeddedKernel& kernel, VkPipelineCreateFlags flags);
  std::vector<uint32_t> module_code(const EmbeddedKernel& kernel) const;
  // The kernel's own workgroup size where it fixes one, else the device's default.
  uint32_t workgroup_size_of(const EmbeddedKernel& kernel) const;

  VkDevice device_;
  uint32_t features_ = 0;
  FloatWidths preserved_;
  bool capture_statistics_ = false;
  uint32_t workgroup_size_ = 0;
  VkBool32 native_half_ = VK_FALSE;
  uint64_t fault_address_ = 0;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  std::string cache_path_;
  std::mutex mutex_;
  std::unordered_map<std::string, Kernel> kernels_;
};

}  // namespace torchvulkan::rt
