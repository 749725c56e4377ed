"""torchvulkan: a vendor-neutral Vulkan GPU device for PyTorch.

``import torchvulkan`` registers the ``vulkan`` device: tensors live in Vulkan
device memory and operators run as Vulkan compute shaders. Ops without a
native kernel fall back to the CPU with a warning (an error under
``TORCHVULKAN_STRICT=1``).
"""

import torch

from . import _C
from ._version import __version__
from . import _registration
from .device import (
    current_device,
    device,
    device_count,
    get_device_name,
    get_device_properties,
    is_available,
    is_initialized,
    set_device,
    synchronize,
)
from .memory import empty_cache
from .fallback import fallback_counts, reset_fallback_counts
from .matmul import matmul_tier_counts

_registration.register()

__all__ = [
    "__version__",
    "current_device",
    "device",
    "device_count",
    "empty_cache",
    "fallback_counts",
    "get_device_name",
    "get_device_properties",
    "is_available",
    "is_initialized",
    "matmul_tier_counts",
    "reset_fallback_counts",
    "set_device",
    "synchronize",
]
