"""The README's quickstart: tensors and a model on the vulkan device."""

import torch

import torchvulkan

print(f"torchvulkan {torchvulkan.__version__} on {torchvulkan.get_device_name()}")

x = torch.randn(32, 128)
xv = x.to("vulkan")
print("tensor:", xv.device, tuple(xv.shape), xv.dtype, "| round trip exact:", torch.equal(xv.cpu(), x))

model = torch.nn.Linear(128, 10).to("vulkan")
out = model(xv)
print("linear:", out.device, tuple(out.shape), "| matches CPU:",
      torch.allclose(out.cpu(), torch.nn.functional.linear(x, model.weight.cpu(), model.bias.cpu()), atol=1e-5))
print("ops that ran on the CPU fallback:", torchvulkan.fallback_counts() or "none")
print("device memory allocated:", torch.vulkan.memory_allocated(), "bytes")
