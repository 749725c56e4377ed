#pragma once
// Errors raised by the runtime. The ATen layer turns them into the matching
// PyTorch exceptions (OutOfMemory -> torch.OutOfMemoryError).
#include <volk.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace torchvulkan::rt {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OutOfMemory : public Error {
 public:
  using Error::Error;
};

const char* result_name(VkResult result);

// Throws Error("<what> failed: VK_ERROR_...") unless result is VK_SUCCESS.
void check(VkResult result, const char* what);

std::string format_bytes(uint64_t bytes);

}  // namespace torchvulkan::rt
