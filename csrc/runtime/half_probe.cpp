#include "runtime/half_probe.h"

#include <cstring>

namespace torchvulkan::rt {

bool probe_native_half(Pipelines& pipelines, Stream& stream, MemoryPool& memory, HostPool& host) {
  // 4 inputs for each of the 0x7C00 positive finite halves, plus infinity and
  // the largest float (one invocation each).
  constexpr uint64_t kInvocations = 4 * 0x7C00 + 2;
  pipelines.set_native_half(true);  // the probe compares the native path with the exact one
  const Kernel& kernel = pipelines.get("half_probe");

  Block* counter = memory.allocate(sizeof(uint32_t));
  uint64_t address = counter->address();
  Location location = *memory.locate(address);
  Access counter_write{address, address + sizeof(uint32_t), true};
  uint32_t zero = 0;
  stream.update(location.buffer, location.offset, &zero, sizeof(zero), counter_write);
  uint64_t push = address;
  stream.dispatch(kernel, &push, sizeof(push), nullptr, 0, kInvocations, {&counter_write, 1});

  void* result = host.allocate(sizeof(uint32_t));
  Location staging = *host.locate(result);
  auto result_address = reinterpret_cast<uint64_t>(result);
  uint64_t done = stream.copy(location.buffer, location.offset, staging.buffer, staging.offset,
                              sizeof(uint32_t), {address, address + sizeof(uint32_t), false},
                              {result_address, result_address + sizeof(uint32_t), true});
  host.record_use(result, done);
  stream.wait(done);
  uint32_t mismatches;
  std::memcpy(&mismatches, result, sizeof(mismatches));
  host.free(result);
  memory.free(counter);

  pipelines.set_native_half(mismatches == 0);
  return mismatches == 0;
}

}  // namespace torchvulkan::rt
