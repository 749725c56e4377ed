#pragma once
// The caching device allocator, after the design of PyTorch's CUDA caching
// allocator: large segments from the driver, split into blocks, freed blocks
// kept in size-ordered pools and merged with free neighbours.
//
// Reuse is safe against GPU work in flight because every user of a block
// records its accesses on the one queue of the device in order, and the
// stream inserts a barrier wherever a new access overlaps an earlier one
// (stream.h). Memory goes back to the driver only after the device is idle.
//
// VMA is not used: it is not packaged for Debian 12, and what it would add
// (sub-allocation) is the part this pool must do itself anyway to get
// PyTorch's size classes, stream-ordered reuse and statistics.
#include <volk.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "runtime/buffer.h"

namespace torchvulkan::rt {

struct Stat {
  int64_t current = 0, peak = 0, allocated = 0, freed = 0;
  void increase(int64_t n);
  void decrease(int64_t n);
};

// Index 0: all pools, 1: small pool (blocks <= 1 MiB), 2: large pool.
using StatArray = std::array<Stat, 3>;

struct MemoryStats {
  StatArray allocation, segment, active, inactive_split;
  StatArray allocated_bytes, reserved_bytes, active_bytes, inactive_split_bytes, requested_bytes;
  int64_t num_alloc_retries = 0, num_ooms = 0, num_device_alloc = 0, num_device_free = 0;
};

struct Segment;
class MemoryPool;

struct Block {
  Segment* segment;
  uint64_t offset;
  uint64_t size;
  uint64_t requested = 0;
  bool allocated = false;
  Block* prev = nullptr;
  Block* next = nullptr;
  uint64_t address() const;
};

struct Segment {
  Buffer buffer;
  bool small;
  MemoryPool* owner;
};

// Where a device address lives: its buffer and the offset inside it.
struct Location {
  VkBuffer buffer;
  uint64_t offset;
  uint64_t available;  // bytes from offset to the end of the buffer
  void* mapped;        // host pointer of the address, or null
};

class MemoryPool {
 public:
  // `synchronize` waits for all work on the device; called before memory is
  // returned to the driver.
  MemoryPool(VkDevice device, uint32_t memory_type, uint64_t heap_size, uint64_t max_allocation,
             bool host_visible, std::function<void()> synchronize);
  ~MemoryPool();

  // Throws OutOfMemory (with sizes) when the device has no room even after
  // returning all cached memory.
  Block* allocate(uint64_t bytes);
  void free(Block* block);
  void empty_cache();

  std::optional<Location> locate(uint64_t address);
  MemoryStats stats();
  void reset_peak();
  void reset_accumulated();
  uint64_t capacity() const { return heap_size_; }
  // The most this pool may reserve from the driver (torch.vulkan.
  // set_per_process_memory_fraction): `fraction` of the heap, as CUDA's
  // allocator applies it. Already reserved memory is kept.
  void set_fraction(double fraction);
  double fraction() const { return fraction_; }

 private:
  struct BySize {
    bool operator()(const Block* a, const Block* b) const;
  };
  using Pool = std::set<Block*, BySize>;

  Block* try_allocate(uint64_t size, bool small, uint64_t requested);
  bool grow(uint64_t size, bool small);
  void release_free_segments();
  void update_stats(const Block* block, bool small, int sign);

  VkDevice device_;
  uint32_t memory_type_;
  uint64_t heap_size_;
  uint64_t max_allocation_;
  bool host_visible_;
  std::function<void()> synchronize_;

  std::recursive_mutex mutex_;
  Pool small_, large_;
  std::map<uint64_t, Segment*> segments_;  // by buffer address
  uint64_t reserved_ = 0;
  uint64_t limit_;  // heap_size_ * fraction_
  double fraction_ = 1.0;
  MemoryStats stats_;
};

}  // namespace torchvulkan::rt
