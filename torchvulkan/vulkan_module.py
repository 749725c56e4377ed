"""``torch.vulkan``: the device module, shaped like ``torch.cuda``."""

import torch

from . import _C
from .device import (  # noqa: F401
    VulkanDeviceProperties,
    current_device,
    device,
    device_count,
    get_device_name,
    get_device_properties,
    is_available,
    is_bf16_supported,
    is_initialized,
    set_device,
    synchronize,
)
from .memory import (  # noqa: F401
    empty_cache,
    get_per_process_memory_fraction,
    host_memory_stats,
    max_memory_allocated,
    max_memory_reserved,
    mem_get_info,
    memory_allocated,
    memory_reserved,
    memory_stats,
    memory_summary,
    reset_accumulated_memory_stats,
    reset_peak_memory_stats,
    set_per_process_memory_fraction,
)
from .random import (  # noqa: F401
    get_rng_state,
    get_rng_state_all,
    initial_seed,
    manual_seed,
    manual_seed_all,
    seed,
    seed_all,
    set_rng_state,
    set_rng_state_all,
)
from .streams import Event, current_stream, default_stream, stream  # noqa: F401

# What an allocation beyond the device's memory (or the process's fraction
# of it) raises, under torch.cuda's name for it.
OutOfMemoryError = torch.OutOfMemoryError


def get_amp_supported_dtype() -> list[torch.dtype]:
    return [torch.float16, torch.bfloat16]


def _is_in_bad_fork() -> bool:
    """True in a process forked after its parent opened a Vulkan device."""
    return _C.in_bad_fork()
