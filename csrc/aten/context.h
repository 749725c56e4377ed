#pragma once
// The bridge from ATen to the runtime: which Vulkan device a tensor or the
// current thread is on, and where a tensor's bytes live.
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "runtime/device.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace torchvulkan {

// The thread's current device index (torch.vulkan.set_device).
c10::DeviceIndex current_device();
void set_current_device(c10::DeviceIndex index);

// The runtime device for a PyTorch device (index -1 means the current one).
// Raises a RuntimeError naming the problem (no driver, bad index).
rt::Device& device(c10::DeviceIndex index);
rt::Device& device_for(const at::TensorBase& tensor);

// The byte range a tensor's elements span, for the stream's hazard tracking.
rt::Access span_of(const at::TensorBase& tensor, bool write);

// A tensor's device address, as kernels read it through buffer references;
// 0 for an undefined tensor (an optional operand the kernel skips).
uint64_t address_of(const at::TensorBase& tensor);

// The buffer and offset behind a Vulkan tensor's first element.
rt::Location locate(const at::TensorBase& tensor);

// Raises the faults `dev`'s kernels reported since the last check (an index
// out of range: IndexError), as CUDA raises a device-side assert at the
// next synchronization. Called right after the host waited for the device.
void raise_faults(rt::Device& dev);

}  // namespace torchvulkan
