"""Makes PyTorch's PrivateUse1 device answer to the name "vulkan".

PyTorch has a legacy in-tree Vulkan backend whose names collide with ours:
``Tensor.is_vulkan`` (which checks the in-tree device type) and
``torch.is_vulkan_available()``. ``generate_methods_for_privateuse1_backend``
refuses to define tensor methods because ``is_vulkan`` exists, so the tensor
methods are defined here, and the two legacy names are pointed at this
device, so users never meet the in-tree backend.
"""

import atexit
import sys

import torch

from . import _C


def _tensor_vulkan(self, device=None, non_blocking=False, memory_format=torch.preserve_format):
    """Returns a copy of this tensor on the vulkan device (no copy if already there)."""
    index = device if isinstance(device, int) else (torch.device(device).index if device is not None else None)
    target = torch.device("vulkan", index) if index is not None else torch.device("vulkan")
    return self.to(target, non_blocking=non_blocking, memory_format=memory_format)


def _patch_tensor_printing():
    # Printing formats the values with a dozen small ops; run them on a host
    # copy, as PyTorch does for xla and lazy tensors, so printing neither
    # trips strict mode nor warns about fallbacks.
    import torch._tensor_str as tensor_str

    original = tensor_str._tensor_str

    def _tensor_str(self, indent):
        if self.device.type == "vulkan":
            self = self.cpu()
        return original(self, indent)

    tensor_str._tensor_str = _tensor_str


def register():
    torch.utils.rename_privateuse1_backend("vulkan")
    from . import vulkan_module

    torch._register_device_module("vulkan", vulkan_module)
    sys.modules["torch.vulkan"] = vulkan_module
    torch.Tensor.vulkan = _tensor_vulkan
    torch.Tensor.is_vulkan = property(lambda self: self.device.type == "vulkan", doc="Is this a vulkan tensor?")
    torch.utils.generate_methods_for_privateuse1_backend(
        for_tensor=False, for_module=True, for_packed_sequence=True, for_storage=True
    )
    torch.is_vulkan_available = vulkan_module.is_available
    _patch_tensor_printing()
    atexit.register(_C.save_pipeline_cache)
