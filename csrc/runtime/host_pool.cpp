#include "runtime/host_pool.h"

#include <bit>

#include "runtime/error.h"

namespace torchvulkan::rt {

HostPool::HostPool(VkDevice device, uint32_t memory_type, std::function<uint64_t()> completed)
    : device_(device), memory_type_(memory_type), completed_(std::move(completed)) {}

HostPool::~HostPool() {
  for (auto& [address, entry] : entries_) destroy_buffer(device_, entry.buffer);
}

void* HostPool::allocate(uint64_t bytes) {
  // Power-of-two classes, as PyTorch's CUDA host allocator, so blocks are reused.
  uint64_t size = std::bit_ceil(std::max<uint64_t>(bytes, 4096));
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t done = completed_();
  for (auto& [address, entry] : entries_) {
    if (!entry.in_use && entry.buffer.size == size && entry.last_use <= done) {
      entry.in_use = true;
      allocated_ += size;
      return entry.buffer.mapped;
    }
  }
  Buffer buffer;
  try {
    buffer = create_buffer(device_, memory_type_, size, true);
  } catch (const OutOfMemory&) {
    // Cached blocks may be what stands in the way: drop the idle ones and retry.
    release_idle(done);
    buffer = create_buffer(device_, memory_type_, size, true);
  }
  entries_[reinterpret_cast<uintptr_t>(buffer.mapped)] = Entry{buffer, true, 0};
  allocated_ += size;
  reserved_ += size;
  return buffer.mapped;
}

HostPool::Entry* HostPool::find(const void* ptr) {
  auto address = reinterpret_cast<uintptr_t>(ptr);
  auto it = entries_.upper_bound(address);
  if (it == entries_.begin()) return nullptr;
  --it;
  if (address - it->first >= it->second.buffer.size) return nullptr;
  return &it->second;
}

void HostPool::free(void* ptr) {
  std::lock_guard<std::mutex> lock(mutex_);
  Entry* entry = find(ptr);
  if (!entry) return;
  entry->in_use = false;
  allocated_ -= entry->buffer.size;
}

void HostPool::record_use(const void* ptr, uint64_t value) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (Entry* entry = find(ptr)) entry->last_use = std::max(entry->last_use, value);
}

std::optional<Location> HostPool::locate(const void* ptr) {
  std::lock_guard<std::mutex> lock(mutex_);
  Entry* entry = find(ptr);
  if (!entry) return std::nullopt;
  uint64_t offset = reinterpret_cast<uintptr_t>(ptr) - reinterpret_cast<uintptr_t>(entry->buffer.mapped);
  return Location{entry->buffer.buffer, offset, entry->buffer.size - offset, const_cast<void*>(ptr)};
}

void HostPool::empty_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  release_idle(completed_());
}

void HostPool::release_idle(uint64_t done) {
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (!it->second.in_use && it->second.last_use <= done) {
      reserved_ -= it->second.buffer.size;
      destroy_buffer(device_, it->second.buffer);
      it = entries_.erase(it);
    } else {
      ++it;
    }
  }
}

uint64_t HostPool::allocated_bytes() {
  std::lock_guard<std::mutex> lock(mutex_);
  return allocated_;
}

uint64_t HostPool::reserved_bytes() {
  std::lock_guard<std::mutex> lock(mutex_);
  return reserved_;
}

}  // namespace torchvulkan::rt
