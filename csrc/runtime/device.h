#pragma once
// One logical device: its compute queue and stream, its memory pools and its
// pipelines. Created on first use and kept until the process exits.
#include <volk.h>

#include <memory>
#include <optional>

#include "runtime/capabilities.h"
#include "runtime/host_pool.h"
#include "runtime/memory_pool.h"
#include "runtime/pipelines.h"
#include "runtime/stream.h"

namespace torchvulkan::rt {

class Device {
 public:
  Device(int index, VkPhysicalDevice physical, Capabilities caps);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  int index() const { return index_; }
  const Capabilities& caps() const { return caps_; }
  VkDevice handle() const { return device_; }
  MemoryPool& memory() { return *memory_; }
  HostPool& host() { return *host_; }
  Stream& stream() { return *stream_; }
  Pipelines& pipelines() { return *pipelines_; }
  // Whether kernels convert float to half with the driver's instruction (half_probe.h).
  bool native_half() const { return native_half_; }

  // A device address of this device's memory or a pinned host pointer.
  std::optional<Location> locate(uint64_t address);

  void synchronize() { stream_->synchronize(); }
  void empty_cache();

  // Faults kernels reported (shaders/common/fault.glsl), as bits, since the
  // last call, which clears them. Complete for the kernels that have
  // completed.
  static constexpr uint32_t kFaultIndex = 1;  // an index out of range
  static constexpr uint32_t kFaultValue = 2;  // a Poisson rate below 0 or NaN
  uint32_t take_faults();

 private:
  int index_;
  VkPhysicalDevice physical_;
  Capabilities caps_;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::unique_ptr<Pipelines> pipelines_;
  std::unique_ptr<Stream> stream_;
  std::unique_ptr<MemoryPool> memory_;
  std::unique_ptr<HostPool> host_;
  bool native_half_ = false;
  Buffer fault_;  // the word kernels report faults in, host-visible
};

}  // namespace torchvulkan::rt
