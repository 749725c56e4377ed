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


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.2f} {unit}"
        n /= 1024
    return f"{n:.2f} TiB"


def memory_summary(device=None, abbreviated: bool = False) -> str:
    """The caching allocator's statistics as a table, with the rows and
    columns of torch.cuda.memory_summary: current, peak, allocated and freed
    in total, for all blocks and, unless abbreviated, the large (> 1 MiB)
    and small pools. The non-releasable rows (free pieces of split segments)
    are counted when asked, so they have a current value only."""
    stats = memory_stats(device)
    rows = [("Allocated memory", "allocated_bytes", True), ("Active memory", "active_bytes", True),
            ("Requested memory", "requested_bytes", True), ("GPU reserved memory", "reserved_bytes", True),
            ("Non-releasable memory", "inactive_split_bytes", True), ("Allocations", "allocation", False),
            ("Active allocs", "active", False), ("GPU reserved segments", "segment", False),
            ("Non-releasable allocs", "inactive_split", False)]
    pools = [("all", "")] if abbreviated else [("all", ""), ("large_pool", "  from large pool"),
                                                ("small_pool", "  from small pool")]
    columns = ("Cur Usage", "Peak Usage", "Tot Alloc", "Tot Freed")
    width = 24
    line = "|" + "-" * (width + 2 + 4 * 15) + "|"
    out = [line, f"| {'Vulkan memory summary, device ID ' + str(_index(device)):<{width + 4 * 15 + 1}}|",
           line, f"| {'Metric':<{width}}" + "".join(f"| {c:>12} " for c in columns) + "|", line]
    for title, key, in_bytes in rows:
        for pool, label in pools:
            values = [stats.get(f"{key}.{pool}.{kind}", 0) for kind in ("current", "peak", "allocated", "freed")]
            shown = [_size(v) if in_bytes else str(v) for v in values]
            if key.startswith("inactive_split"):  # counted when asked: no history
                shown[1:] = ["-"] * 3
            out.append(f"| {(title if not label else label):<{width}}" + "".join(f"| {v:>12} " for v in shown) + "|")
        out.append(line)
    for title, key in (("Allocation retries", "num_alloc_retries"), ("Out-of-memory errors", "num_ooms"),
                       ("Device allocations", "num_device_alloc"), ("Device frees", "num_device_free")):
        out.append(f"| {title:<{width}}| {stats.get(key, 0):>{4 * 15 - 2}} |")
    out.append(line)
    return "\n".join(out) + "\n"


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
