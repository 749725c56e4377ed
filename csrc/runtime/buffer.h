#pragma once
// One VkDeviceMemory with one VkBuffer spanning it: the unit every allocator
// here hands out pieces of. Kernels see it only through its device address.
#include <volk.h>

#include <cstdint>

namespace torchvulkan::rt {

struct Buffer {
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkBuffer buffer = VK_NULL_HANDLE;
  uint64_t address = 0;      // buffer device address of byte 0
  void* mapped = nullptr;    // host pointer of byte 0 when host-visible
  uint64_t size = 0;
};

// Picks the first memory type with all `required` flags, preferring those that
// also have all `preferred` flags and none of `avoided`. Returns UINT32_MAX if none.
uint32_t find_memory_type(VkPhysicalDevice device, VkMemoryPropertyFlags required,
                          VkMemoryPropertyFlags preferred, VkMemoryPropertyFlags avoided);

// Throws OutOfMemory when the driver has no room.
Buffer create_buffer(VkDevice device, uint32_t memory_type, uint64_t size, bool host_visible);
void destroy_buffer(VkDevice device, Buffer& buffer);

}  // namespace torchvulkan::rt
