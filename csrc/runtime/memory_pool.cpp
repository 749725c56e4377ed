#include "runtime/memory_pool.h"

#include <algorithm>

#include "runtime/error.h"

namespace torchvulkan::rt {
namespace {

// Size classes as in PyTorch's CUDA caching allocator.
constexpr uint64_t kMinBlock = 512;
constexpr uint64_t kSmallSize = 1 << 20;      // largest block of the small pool
constexpr uint64_t kSmallSegment = 2 << 20;   // segments of the small pool
constexpr uint64_t kLargeSegment = 20 << 20;  // segments for blocks under 10 MiB
constexpr uint64_t kMinLargeAlloc = 10 << 20;
constexpr uint64_t kRoundLarge = 2 << 20;

uint64_t round_up(uint64_t n, uint64_t to) {
  return (n + to - 1) / to * to;
}

uint64_t segment_size(uint64_t size) {
  if (size <= kSmallSize) return kSmallSegment;
  if (size < kMinLargeAlloc) return kLargeSegment;
  return round_up(size, kRoundLarge);
}

}  // namespace

void Stat::increase(int64_t n) {
  current += n;
  peak = std::max(peak, current);
  allocated += n;
}

void Stat::decrease(int64_t n) {
  current -= n;
  freed += n;
}

uint64_t Block::address() const {
  return segment->buffer.address + offset;
}

bool MemoryPool::BySize::operator()(const Block* a, const Block* b) const {
  if (a->size != b->size) return a->size < b->size;
  return a->address() < b->address();
}

MemoryPool::MemoryPool(VkDevice device, uint32_t memory_type, uint64_t heap_size,
                       uint64_t max_allocation, bool host_visible,
                       std::function<void()> synchronize)
    : device_(device),
      memory_type_(memory_type),
      heap_size_(heap_size),
      max_allocation_(max_allocation),
      host_visible_(host_visible),
      synchronize_(std::move(synchronize)),
      limit_(heap_size) {}

void MemoryPool::set_fraction(double fraction) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  fraction_ = fraction;
  limit_ = static_cast<uint64_t>(fraction * static_cast<double>(heap_size_));
}

MemoryPool::~MemoryPool() {
  for (Pool* pool : {&small_, &large_}) {
    for (Block* block : *pool) delete block;
  }
  for (auto& [address, segment] : segments_) {
    destroy_buffer(device_, segment->buffer);
    delete segment;
  }
}

void MemoryPool::update_stats(const Block* block, bool small, int sign) {
  for (int pool : {0, small ? 1 : 2}) {
    if (sign > 0) {
      stats_.allocation[pool].increase(1);
      stats_.active[pool].increase(1);
      stats_.allocated_bytes[pool].increase(block->size);
      stats_.active_bytes[pool].increase(block->size);
      stats_.requested_bytes[pool].increase(block->requested);
    } else {
      stats_.allocation[pool].decrease(1);
      stats_.active[pool].decrease(1);
      stats_.allocated_bytes[pool].decrease(block->size);
      stats_.active_bytes[pool].decrease(block->size);
      stats_.requested_bytes[pool].decrease(block->requested);
    }
  }
}

Block* MemoryPool::try_allocate(uint64_t size, bool small, uint64_t requested) {
  Pool& pool = small ? small_ : large_;
  Segment probe_segment{Buffer{}, small, this};
  Block probe{&probe_segment, 0, size};
  auto it = pool.lower_bound(&probe);
  if (it == pool.end()) return nullptr;
  Block* block = *it;
  pool.erase(it);
  uint64_t remaining = block->size - size;
  if (remaining >= (small ? kMinBlock : kSmallSize + 1)) {
    // Split: the tail stays free in the pool.
    auto* tail = new Block{block->segment, block->offset + size, remaining};
    tail->prev = block;
    tail->next = block->next;
    if (block->next) block->next->prev = tail;
    block->next = tail;
    block->size = size;
    pool.insert(tail);
  }
  block->allocated = true;
  block->requested = requested;
  update_stats(block, small, +1);
  return block;
}

bool MemoryPool::grow(uint64_t size, bool small) {
  uint64_t bytes = segment_size(size);
  if (reserved_ + bytes > limit_ || bytes > max_allocation_) return false;
  Buffer buffer;
  try {
    buffer = create_buffer(device_, memory_type_, bytes, host_visible_);
  } catch (const OutOfMemory&) {
    return false;
  }
  auto* segment = new Segment{buffer, small, this};
  segments_[buffer.address] = segment;
  reserved_ += bytes;
  (small ? small_ : large_).insert(new Block{segment, 0, bytes});
  for (int pool : {0, small ? 1 : 2}) {
    stats_.segment[pool].increase(1);
    stats_.reserved_bytes[pool].increase(bytes);
  }
  ++stats_.num_device_alloc;
  return true;
}

Block* MemoryPool::allocate(uint64_t bytes) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  uint64_t size = std::max(kMinBlock, round_up(bytes, kMinBlock));
  bool small = size <= kSmallSize;
  if (Block* block = try_allocate(size, small, bytes)) return block;
  if (grow(size, small)) return try_allocate(size, small, bytes);
  // Return every cached segment to the driver, then try once more.
  ++stats_.num_alloc_retries;
  release_free_segments();
  if (grow(size, small)) return try_allocate(size, small, bytes);
  ++stats_.num_ooms;
  std::string message = "Vulkan out of memory. Tried to allocate " + format_bytes(bytes) +
                        ". Device capacity " + format_bytes(heap_size_) + "; " +
                        format_bytes(stats_.allocated_bytes[0].current) +
                        " allocated by tensors; " + format_bytes(reserved_) + " reserved in total.";
  if (segment_size(size) > max_allocation_) {
    message += " The driver's largest single allocation is " + format_bytes(max_allocation_) + ".";
  }
  if (limit_ < heap_size_) {
    message +=
        " This process may reserve " + format_bytes(limit_) + " (set_per_process_memory_fraction).";
  }
  throw OutOfMemory(message);
}

void MemoryPool::free(Block* block) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  bool small = block->segment->small;
  update_stats(block, small, -1);
  block->allocated = false;
  Pool& pool = small ? small_ : large_;
  // Merge with free neighbours.
  for (Block* neighbour : {block->prev, block->next}) {
    if (!neighbour || neighbour->allocated) continue;
    pool.erase(neighbour);
    if (neighbour == block->prev) {
      neighbour->size += block->size;
      neighbour->next = block->next;
      if (block->next) block->next->prev = neighbour;
      delete block;
      block = neighbour;
    } else {
      block->size += neighbour->size;
      block->next = neighbour->next;
      if (neighbour->next) neighbour->next->prev = block;
      delete neighbour;
    }
  }
  pool.insert(block);
}

void MemoryPool::release_free_segments() {
  // Work still queued may touch freed blocks: let it finish first.
  synchronize_();
  for (Pool* pool : {&small_, &large_}) {
    for (auto it = pool->begin(); it != pool->end();) {
      Block* block = *it;
      if (block->prev || block->next) {
        ++it;
        continue;
      }
      Segment* segment = block->segment;
      uint64_t bytes = segment->buffer.size;
      for (int index : {0, segment->small ? 1 : 2}) {
        stats_.segment[index].decrease(1);
        stats_.reserved_bytes[index].decrease(bytes);
      }
      ++stats_.num_device_free;
      reserved_ -= bytes;
      segments_.erase(segment->buffer.address);
      destroy_buffer(device_, segment->buffer);
      delete segment;
      delete block;
      it = pool->erase(it);
    }
  }
}

void MemoryPool::empty_cache() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  release_free_segments();
}

std::optional<Location> MemoryPool::locate(uint64_t address) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  auto it = segments_.upper_bound(address);
  if (it == segments_.begin()) return std::nullopt;
  --it;
  const Buffer& buffer = it->second->buffer;
  uint64_t offset = address - buffer.address;
  if (offset >= buffer.size) return std::nullopt;
  void* mapped = buffer.mapped ? static_cast<char*>(buffer.mapped) + offset : nullptr;
  return Location{buffer.buffer, offset, buffer.size - offset, mapped};
}

MemoryStats MemoryPool::stats() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  MemoryStats out = stats_;
  // Free pieces of split segments: cached, but not returnable to the driver.
  for (Pool* pool : {&small_, &large_}) {
    for (const Block* block : *pool) {
      if (!block->prev && !block->next) continue;
      for (int index : {0, pool == &small_ ? 1 : 2}) {
        out.inactive_split[index].current += 1;
        out.inactive_split_bytes[index].current += block->size;
      }
    }
  }
  return out;
}

void MemoryPool::reset_peak() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  for (StatArray* array :
       {&stats_.allocation, &stats_.segment, &stats_.active, &stats_.inactive_split,
        &stats_.allocated_bytes, &stats_.reserved_bytes, &stats_.active_bytes,
        &stats_.inactive_split_bytes, &stats_.requested_bytes}) {
    for (Stat& stat : *array) stat.peak = stat.current;
  }
}

void MemoryPool::reset_accumulated() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  for (StatArray* array :
       {&stats_.allocation, &stats_.segment, &stats_.active, &stats_.inactive_split,
        &stats_.allocated_bytes, &stats_.reserved_bytes, &stats_.active_bytes,
        &stats_.inactive_split_bytes, &stats_.requested_bytes}) {
    for (Stat& stat : *array) stat.allocated = stat.freed = 0;
  }
  stats_.num_alloc_retries = stats_.num_ooms = stats_.num_device_alloc = stats_.num_device_free = 0;
}

}  // namespace torchvulkan::rt
