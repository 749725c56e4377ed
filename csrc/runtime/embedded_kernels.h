#pragma once
// The SPIR-V kernels compiled at build time (shaders/compile.py generates the
// definitions from shaders/variants.toml).
#include <cstddef>
#include <cstdint>

namespace torchvulkan::rt {

// Device features a kernel's SPIR-V needs beyond the baseline
// (buffer device address, int64).
namespace Feature {
enum : uint32_t {
  storage8 = 1u << 0,
  storage16 = 1u << 1,
  float64 = 1u << 2,
  coopmat = 1u << 3,       // Capabilities::coopmat_f16_16x16x16
  coopmat_bf16 = 1u << 4,  // Capabilities::coopmat_bf16_16x16x16
  coopmat2 = 1u << 5,      // Capabilities::coopmat2
  shader_clock = 1u << 6,  // Capabilities::shader_clock
};
}

struct EmbeddedKernel {
  const char* name;
  const uint32_t* code;
  size_t words;
  uint32_t features;
  uint32_t workgroup_size;  // fixed by the kernel; 0: the device's default
  bool reports_faults;      // includes shaders/common/fault.glsl
};

extern const EmbeddedKernel kEmbeddedKernels[];
extern const size_t kNumEmbeddedKernels;
// Optional shader-compiler features the build found (nullptr-terminated).
extern const char* const kCompilerFeatures[];

}  // namespace torchvulkan::rt
