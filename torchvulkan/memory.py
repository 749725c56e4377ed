"""Memory statistics of the caching allocator, shaped like torch.cuda's."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from . import _C
from .device import _index


def empty_cache() -> None:
    """Return cached, unused device (and pinned host) memory to the driver."""
    _C.empty_cache()


def memory_stats(device=None) -> "OrderedDict[str, Any]":
    """Flat statistics with torch.cuda.memory_stats' keys."""
    flat = []

    def walk(prefix, value):
        if isinstance(value, dict):
            for key, item in value.items():
                walk(f"{prefix}.{key}" if prefix else key, item)
        else:
            flat.append((prefix, value))

    walk("", _C.memory_stats(_index(device)))
    return OrderedDict(sorted(flat))


def memory_allocated(device=None) -> int:
    return memory_stats(device)["allocated_bytes.all.current"]


def max_memory_allocated(device=None) -> int:
    return memory_stats(device)["allocated_bytes.all.peak"]


def memory_reserved(device=None) -> int:
    return memory_stats(device)["reserved_bytes.all.current"]


def max_memory_reserved(device=None) -> int:
    return memory_stats(device)["reserved_bytes.all.peak"]


def reset_peak_memory_stats(device=None) -> None:
    _C.reset_peak_memory_stats(_index(device))


def reset_accumulated_memory_stats(device=None) -> None:
    _C.reset_accumulated_memory_stats(_index(device))


def host_memory_stats(device=None) -> dict[str, int]:
    """Pinned host memory: bytes in use and bytes held."""
    return dict(_C.host_memory_stats(_index(device)))


def mem_get_info(device=None) -> tuple[int, int]:
    """(free, total) bytes of the device heap, as seen by this process."""
    import torch

    total = torch.vulkan.get_device_properties(device).total_memory
    return total - memory_reserved(device), total


def set_per_process_memory_fraction(fraction: float, device=None) -> None:
    """Limit what the caching allocator may reserve on the device to
    `fraction` of its memory, as torch.cuda's: an allocation beyond it raises
    torch.OutOfMemoryError; memory already reserved stays."""
    if not isinstance(fraction, float):
        raise TypeError("Invalid type for fraction argument, must be `float`")
    if fraction < 0 or fraction > 1:
        raise ValueError(f"Invalid fraction value: {fraction}. Allowed range: 0~1")
    _C.set_memory_fraction(fraction, _index(device))


def get_per_process_memory_fraction(device=None) -> float:
    """The fraction set_per_process_memory_fraction last set (1.0 before)."""
    return _C.memory_fraction(_index(device))
