#pragma once
// Infinities, NaNs and signed zeros in every kernel. Unless a SPIR-V module
// declares the SignedZeroInfNanPreserve execution mode for a float width
// (float controls: core in SPIR-V 1.4 and Vulkan 1.2), a driver may compile
// that width's arithmetic as if no infinity or NaN ever occurs, and NVIDIA's
// does: on the H100 (driver 580.159.04) ctc_loss's log-space sums, a max
// over -inf states and exp(-inf - m), came out as 1e22 and inf where lavapipe
// and the CPU agree. PyTorch's semantics need them everywhere: -inf masks
// and reduction identities, NaN propagation, -0.0.
//
// glslc has no option for the mode, and a device may preserve only some
// widths (VkPhysicalDeviceVulkan12Properties::
// shaderSignedZeroInfNanPreserveFloat16/32/64), so the runtime adds it to
// each module when it creates the pipeline, for the widths the module
// computes in and the device preserves. Inserting two instructions is done
// here by hand: SPIRV-Tools, the library for editing SPIR-V, has no pass
// that adds this execution mode.
#include <cstdint>
#include <span>
#include <vector>

namespace torchvulkan::rt {

struct FloatWidths {
  bool f16 = false, f32 = false, f64 = false;
};

// `code` with OpCapability SignedZeroInfNanPreserve and, for each entry
// point, OpExecutionMode SignedZeroInfNanPreserve for every width in
// `preserved` the module computes in: 32 always, 16 and 64 where it declares
// the Float16 or Float64 capability. A module older than SPIR-V 1.4 (which
// would need SPV_KHR_float_controls declared too) comes back unchanged.
std::vector<uint32_t> preserve_inf_nan(std::span<const uint32_t> code, FloatWidths preserved);

// The widths a module's SignedZeroInfNanPreserve execution modes name, in
// increasing order.
std::vector<uint32_t> preserved_widths(std::span<const uint32_t> code);

}  // namespace torchvulkan::rt
