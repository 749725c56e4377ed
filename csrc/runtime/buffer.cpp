#include "runtime/buffer.h"

#include "runtime/error.h"

namespace torchvulkan::rt {

uint32_t find_memory_type(VkPhysicalDevice device, VkMemoryPropertyFlags required,
                          VkMemoryPropertyFlags preferred, VkMemoryPropertyFlags avoided) {
  VkPhysicalDeviceMemoryProperties props;
  vkGetPhysicalDeviceMemoryProperties(device, &props);
  uint32_t best = UINT32_MAX;
  int best_score = -1;
  for (uint32_t i = 0; i < props.memoryTypeCount; ++i) {
    VkMemoryPropertyFlags flags = props.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    int score = ((flags & preferred) == preferred ? 2 : 0) + ((flags & avoided) == 0 ? 1 : 0);
    if (score > best_score) {
      best = i;
      best_score = score;
    }
  }
  return best;
}

Buffer create_buffer(VkDevice device, uint32_t memory_type, uint64_t size, bool host_visible) {
  Buffer out;
  out.size = size;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(device, &info, nullptr, &out.buffer), "vkCreateBuffer");

  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device, out.buffer, &req);
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &flags};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = memory_type;
  VkResult result = vkAllocateMemory(device, &alloc, nullptr, &out.memory);
  if (result != VK_SUCCESS) {
    vkDestroyBuffer(device, out.buffer, nullptr);
    check(result, "vkAllocateMemory");
  }
  try {
    check(vkBindBufferMemory(device, out.buffer, out.memory, 0), "vkBindBufferMemory");
    if (host_visible) check(vkMapMemory(device, out.memory, 0, VK_WHOLE_SIZE, 0, &out.mapped), "vkMapMemory");
  } catch (...) {
    destroy_buffer(device, out);
    throw;
  }
  VkBufferDeviceAddressInfo address{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  address.buffer = out.buffer;
  out.address = vkGetBufferDeviceAddress(device, &address);
  return out;
}

void destroy_buffer(VkDevice device, Buffer& buffer) {
  if (buffer.buffer) vkDestroyBuffer(device, buffer.buffer, nullptr);
  if (buffer.memory) vkFreeMemory(device, buffer.memory, nullptr);  // also unmaps
  buffer = Buffer{};
}

}  // namespace torchvulkan::rt
