#include "runtime/pipelines.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "runtime/embedded_kernels.h"
#include "runtime/error.h"

namespace torchvulkan::rt {
namespace {

const EmbeddedKernel* find_kernel(std::string_view name) {
  static const auto index = [] {
    std::unordered_map<std::string_view, const EmbeddedKernel*> map;
    for (size_t i = 0; i < kNumEmbeddedKernels; ++i)
      map[kEmbeddedKernels[i].name] = &kEmbeddedKernels[i];
    return map;
  }();
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

std::string cache_file(const Capabilities& caps) {
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    base = std::filesystem::path(home) / ".cache";
  } else {
    return "";
  }
  char uuid[33];
  for (int i = 0; i < 16; ++i) std::snprintf(uuid + 2 * i, 3, "%02x", caps.uuid[i]);
  char name[128];
  std::snprintf(name, sizeof(name), "pipelines-%04x-%04x-%08x-%s.bin", caps.vendor_id,
                caps.device_id, caps.driver_version, uuid);
  return (base / "torchvulkan" / name).string();
}

}  // namespace

Pipelines::Pipelines(VkDevice device, const Capabilities& caps) : device_(device) {
  if (caps.storage8) features_ |= Feature::storage8;
  if (caps.storage16) features_ |= Feature::storage16;
  if (caps.float64) features_ |= Feature::float64;
  if (caps.coopmat_f16_16x16x16) features_ |= Feature::coopmat;
  if (caps.coopmat_bf16_16x16x16) features_ |= Feature::coopmat_bf16;
  if (caps.coopmat2) features_ |= Feature::coopmat2;
  if (caps.shader_clock) features_ |= Feature::shader_clock;
  preserved_ = {caps.preserves_inf_nan16, caps.preserves_inf_nan32, caps.preserves_inf_nan64};
  capture_statistics_ = caps.pipeline_statistics;
  workgroup_size_ = std::min({256u, caps.max_workgroup_invocations, caps.max_workgroup_size[0]});

  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushConstantBytes};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.pushConstantRangeCount = 1;
  info.pPushConstantRanges = &range;
  check(vkCreatePipelineLayout(device_, &info, nullptr, &layout_), "vkCreatePipelineLayout");

  cache_path_ = cache_file(caps);
  std::vector<char> data;
  if (!cache_path_.empty()) {
    std::ifstream in(cache_path_, std::ios::binary);
    data.assign(std::istreambuf_iterator<char>(in), {});
  }
  VkPipelineCacheCreateInfo cache_info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  cache_info.initialDataSize = data.size();
  cache_info.pInitialData = data.empty() ? nullptr : data.data();
  // A stale or foreign cache file is ignored by the driver; start empty if it is refused.
  if (vkCreatePipelineCache(device_, &cache_info, nullptr, &cache_) != VK_SUCCESS) {
    cache_info.initialDataSize = 0;
    cache_info.pInitialData = nullptr;
    check(vkCreatePipelineCache(device_, &cache_info, nullptr, &cache_), "vkCreatePipelineCache");
  }
}

Pipelines::~Pipelines() {
  for (auto& [name, kernel] : kernels_) vkDestroyPipeline(device_, kernel.pipeline, nullptr);
  vkDestroyPipelineCache(device_, cache_, nullptr);
  vkDestroyPipelineLayout(device_, layout_, nullptr);
}

bool Pipelines::available(std::string_view name) {
  const EmbeddedKernel* kernel = find_kernel(name);
  return kernel && (kernel->features & ~features_) == 0;
}

const EmbeddedKernel& Pipelines::find_usable(std::string_view name) const {
  const EmbeddedKernel* embedded = find_kernel(name);
  if (!embedded)
    throw Error("torchvulkan: kernel '" + std::string(name) + "' was not built into this package");
  if (uint32_t missing = embedded->features & ~features_) {
    throw Error("torchvulkan: kernel '" + std::string(name) +
                "' needs a feature this device lacks (" +
                ((missing & Feature::float64)        ? "shaderFloat64"
                 : (missing & Feature::coopmat)      ? "16x16x16 float16 cooperative matrices"
                 : (missing & Feature::coopmat_bf16) ? "16x16x16 bfloat16 cooperative matrices"
                 : (missing & Feature::coopmat2)     ? "VK_NV_cooperative_matrix2"
                 : (missing & Feature::shader_clock) ? "VK_KHR_shader_clock"
                                                     : "8/16-bit storage") +
                ")");
  }
  return *embedded;
}

uint32_t Pipelines::workgroup_size_of(const EmbeddedKernel& kernel) const {
  return kernel.workgroup_size != 0 ? kernel.workgroup_size : workgroup_size_;
}

std::vector<uint32_t> Pipelines::module_code(const EmbeddedKernel& kernel) const {
  return preserve_inf_nan({kernel.code, kernel.words}, preserved_);
}

std::vector<uint32_t> Pipelines::preserved_widths(std::string_view name) const {
  return rt::preserved_widths(module_code(find_usable(name)));
}

VkPipeline Pipelines::create(const EmbeddedKernel& embedded, VkPipelineCreateFlags flags) {
  std::vector<uint32_t> code = module_code(embedded);
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = code.size() * 4;
  module_info.pCode = code.data();
  VkShaderModule module;
  check(vkCreateShaderModule(device_, &module_info, nullptr, &module), "vkCreateShaderModule");

  const uint32_t constants[] = {workgroup_size_of(embedded), native_half_,
                                static_cast<uint32_t>(fault_address_),
                                static_cast<uint32_t>(fault_address_ >> 32)};
  const VkSpecializationMapEntry entries[] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}, {3, 12, 4}};
  // Only the kernels that report faults get the fault word's address: it
  // differs from process to process, and would otherwise miss every
  // pipeline-cache entry.
  VkSpecializationInfo spec{embedded.reports_faults ? 4u : 2u, entries,
                            embedded.reports_faults ? sizeof(constants) : 8, constants};
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.flags = flags;
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &spec;
  info.layout = layout_;
  VkPipeline pipeline;
  VkResult result = vkCreateComputePipelines(device_, cache_, 1, &info, nullptr, &pipeline);
  vkDestroyShaderModule(device_, module, nullptr);
  check(result, "vkCreateComputePipelines");
  return pipeline;
}

const Kernel& Pipelines::get(std::string_view name) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = kernels_.find(std::string(name)); it != kernels_.end()) return it->second;
  const EmbeddedKernel& embedded = find_usable(name);
  VkPipeline pipeline = create(embedded, 0);
  return kernels_
      .emplace(std::string(name), Kernel{pipeline, workgroup_size_of(embedded), std::string(name)})
      .first->second;
}

std::vector<PipelineStatistic> Pipelines::statistics(std::string_view name) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<PipelineStatistic> out;
  const EmbeddedKernel& kernel = find_usable(name);
  if (!capture_statistics_) return out;
  VkPipeline pipeline = create(kernel, VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR);
  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  info.pipeline = pipeline;
  uint32_t count = 0;
  vkGetPipelineExecutablePropertiesKHR(device_, &info, &count, nullptr);
  std::vector<VkPipelineExecutablePropertiesKHR> executables(
      count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  vkGetPipelineExecutablePropertiesKHR(device_, &info, &count, executables.data());
  for (uint32_t e = 0; e < count; ++e) {
    VkPipelineExecutableInfoKHR which{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    which.pipeline = pipeline;
    which.executableIndex = e;
    uint32_t n = 0;
    vkGetPipelineExecutableStatisticsKHR(device_, &which, &n, nullptr);
    std::vector<VkPipelineExecutableStatisticKHR> stats(
        n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    vkGetPipelineExecutableStatisticsKHR(device_, &which, &n, stats.data());
    for (const auto& s : stats) {
      std::string value;
      switch (s.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
          value = s.value.b32 ? "true" : "false";
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
          value = std::to_string(s.value.i64);
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
          value = std::to_string(s.value.u64);
          break;
        default:
          value = std::to_string(s.value.f64);
          break;
      }
      out.push_back({executables[e].name, s.name, value});
    }
  }
  vkDestroyPipeline(device_, pipeline, nullptr);
  return out;
}

void Pipelines::save_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (cache_path_.empty()) return;
  size_t size = 0;
  if (vkGetPipelineCacheData(device_, cache_, &size, nullptr) != VK_SUCCESS || size == 0) return;
  std::vector<char> data(size);
  if (vkGetPipelineCacheData(device_, cache_, &size, data.data()) != VK_SUCCESS) return;
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(cache_path_).parent_path(), error);
  // Write then rename, so a concurrent reader never sees half a file.
  std::string temp = cache_path_ + ".tmp" + std::to_string(reinterpret_cast<uintptr_t>(this));
  {
    std::ofstream out(temp, std::ios::binary);
    out.write(data.data(), static_cast<std::streamsize>(size));
    if (!out) return;
  }
  std::filesystem::rename(temp, cache_path_, error);
}

}  // namespace torchvulkan::rt
