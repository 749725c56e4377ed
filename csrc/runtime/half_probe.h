#pragma once
// Decides whether kernels may convert float to half with the driver's
// packHalf2x16 instead of the written-out round-to-nearest-even conversion:
// Vulkan leaves that rounding mode to the implementation, so it is tested
// on the device itself, once, on every input where a correctly rounded
// result changes (shaders/copy/half_probe.comp).
#include "runtime/host_pool.h"
#include "runtime/memory_pool.h"
#include "runtime/pipelines.h"
#include "runtime/stream.h"

namespace torchvulkan::rt {

// Runs the probe, then sets the pipelines' native-half constant to its verdict.
bool probe_native_half(Pipelines& pipelines, Stream& stream, MemoryPool& memory, HostPool& host);

}  // namespace torchvulkan::rt
