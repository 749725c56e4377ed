#pragma once
// Pinned host memory: host-visible Vulkan memory that copies to and from the
// device read directly, so `non_blocking` copies need no staging and never make
// the host wait. A freed block is reused only once the GPU work that last used
// it has completed (its timeline value has passed).
#include <volk.h>

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "runtime/buffer.h"
#include "runtime/memory_pool.h"

namespace torchvulkan::rt {

class HostPool {
 public:
  // `completed` returns the device's last completed timeline value.
  HostPool(VkDevice device, uint32_t memory_type, std::function<uint64_t()> completed);
  ~HostPool();

  void* allocate(uint64_t bytes);
  void free(void* ptr);
  // Marks the block holding `ptr` as used by GPU work that completes at `value`.
  void record_use(const void* ptr, uint64_t value);
  std::optional<Location> locate(const void* ptr);
  void empty_cache();
  uint64_t allocated_bytes();
  uint64_t reserved_bytes();

 private:
  struct Entry {
    Buffer buffer;
    bool in_use = false;
    uint64_t last_use = 0;
  };
  Entry* find(const void* ptr);
  void release_idle(uint64_t done);  // frees unused blocks whose GPU use is over

  VkDevice device_;
  uint32_t memory_type_;
  std::function<uint64_t()> completed_;
  std::mutex mutex_;
  std::map<uintptr_t, Entry> entries_;  // by host address
  uint64_t allocated_ = 0, reserved_ = 0;
};

}  // namespace torchvulkan::rt
