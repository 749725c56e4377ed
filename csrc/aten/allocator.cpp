// c10 faces of the runtime's allocators: the caching device allocator as a
// c10::DeviceAllocator (so torch.accelerator.memory_* work) and the pinned
// host allocator.
#include "aten/allocator.h"

#include <c10/core/CachingDeviceAllocator.h>
#include <c10/util/Exception.h>

#include <cstring>

#include "aten/context.h"
#include "runtime/error.h"

namespace torchvulkan {
namespace {

namespace cda = c10::CachingDeviceAllocator;

void free_block(void* ctx) {
  auto* block = static_cast<rt::Block*>(ctx);
  block->segment->owner->free(block);
}

void copy_stat_array(const rt::StatArray& from, cda::StatArray& to) {
  for (size_t i = 0; i < from.size(); ++i) {
    to[i].current = from[i].current;
    to[i].peak = from[i].peak;
    to[i].allocated = from[i].allocated;
    to[i].freed = from[i].freed;
  }
}

class DeviceAllocator final : public c10::DeviceAllocator {
 public:
  c10::DataPtr allocate(size_t bytes) override {
    c10::DeviceIndex index = current_device();
    c10::Device where(c10::DeviceType::PrivateUse1, index);
    if (bytes == 0) return {nullptr, nullptr, &free_block, where};
    rt::Device& dev = device(index);
    rt::Block* block;
    try {
      block = dev.memory().allocate(bytes);
    } catch (const rt::OutOfMemory& e) {
      TORCH_CHECK_WITH(OutOfMemoryError, false, "torchvulkan: ", e.what(), " (device vulkan:", int(index), ", ",
                       dev.caps().name, ")");
    }
    return {reinterpret_cast<void*>(block->address()), block, &free_block, where};
  }

  c10::DeleterFnPtr raw_deleter() const override { return nullptr; }

  void copy_data(void* dest, const void* src, size_t count) const override {
    rt::Device& dev = device(current_device());
    auto from = dev.locate(reinterpret_cast<uint64_t>(src));
    auto to = dev.locate(reinterpret_cast<uint64_t>(dest));
    TORCH_INTERNAL_ASSERT(from && to, "torchvulkan: copy_data outside device memory");
    auto s = reinterpret_cast<uint64_t>(src), d = reinterpret_cast<uint64_t>(dest);
    dev.stream().copy(from->buffer, from->offset, to->buffer, to->offset, count, {s, s + count, false},
                      {d, d + count, true});
  }

  bool initialized() override { return !rt::Runtime::get().opened().empty(); }

  void emptyCache(c10::MempoolId_t) override {
    for (rt::Device* dev : rt::Runtime::get().opened()) dev->empty_cache();
  }

  // One queue per device: every use is already in stream order.
  void recordStream(const c10::DataPtr&, c10::Stream) override {}

  cda::DeviceStats getDeviceStats(c10::DeviceIndex index) override {
    rt::MemoryStats s = device(index).memory().stats();
    cda::DeviceStats out;
    copy_stat_array(s.allocation, out.allocation);
    copy_stat_array(s.segment, out.segment);
    copy_stat_array(s.active, out.active);
    copy_stat_array(s.inactive_split, out.inactive_split);
    copy_stat_array(s.allocated_bytes, out.allocated_bytes);
    copy_stat_array(s.reserved_bytes, out.reserved_bytes);
    copy_stat_array(s.active_bytes, out.active_bytes);
    copy_stat_array(s.inactive_split_bytes, out.inactive_split_bytes);
    copy_stat_array(s.requested_bytes, out.requested_bytes);
    out.num_alloc_retries = s.num_alloc_retries;
    out.num_ooms = s.num_ooms;
    out.num_device_alloc = s.num_device_alloc;
    out.num_device_free = s.num_device_free;
    return out;
  }

  void resetAccumulatedStats(c10::DeviceIndex index) override { device(index).memory().reset_accumulated(); }
  void resetPeakStats(c10::DeviceIndex index) override { device(index).memory().reset_peak(); }

  std::pair<size_t, size_t> getMemoryInfo(c10::DeviceIndex index) {
    rt::Device& dev = device(index);
    uint64_t total = dev.memory().capacity();
    uint64_t reserved = static_cast<uint64_t>(dev.memory().stats().reserved_bytes[0].current);
    return {total - std::min(total, reserved), total};
  }
};

void free_pinned(void* ptr) {
  for (rt::Device* dev : rt::Runtime::get().opened()) {
    if (dev->host().locate(ptr)) {
      dev->host().free(ptr);
      return;
    }
  }
}

class PinnedAllocator final : public c10::Allocator {
 public:
  c10::DataPtr allocate(size_t bytes) override {
    c10::Device cpu(c10::DeviceType::CPU);
    if (bytes == 0) return {nullptr, nullptr, &free_pinned, cpu};
    void* ptr;
    try {
      ptr = device(current_device()).host().allocate(bytes);
    } catch (const rt::OutOfMemory& e) {
      TORCH_CHECK_WITH(OutOfMemoryError, false, "torchvulkan: pinned host memory: ", e.what());
    }
    return {ptr, ptr, &free_pinned, cpu};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &free_pinned; }
  void copy_data(void* dest, const void* src, size_t count) const override { std::memcpy(dest, src, count); }
};

DeviceAllocator device_allocator_instance;
PinnedAllocator pinned_allocator_instance;

}  // namespace

REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, &device_allocator_instance);

c10::Allocator* device_allocator() { return &device_allocator_instance; }
c10::Allocator* pinned_allocator() { return &pinned_allocator_instance; }

bool is_pinned(const void* ptr) {
  for (rt::Device* dev : rt::Runtime::get().opened()) {
    if (dev->host().locate(ptr)) return true;
  }
  return false;
}

}  // namespace torchvulkan
