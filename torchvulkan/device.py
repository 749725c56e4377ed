"""Devices: availability, selection and properties (shaped like torch.cuda)."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from . import _C

_DeviceLike = "torch.device | str | int | None"


def _index(device: _DeviceLike = None, optional: bool = True) -> int:
    """The device index named by ``device`` (the current one for None)."""
    if device is None:
        return _C.current_device()
    if isinstance(device, int):
        return device
    device = torch.device(device)
    if device.type != "vulkan":
        raise ValueError(f"expected a vulkan device, got {device}")
    return _C.current_device() if device.index is None else device.index


def is_available() -> bool:
    """True when at least one Vulkan device can run torchvulkan."""
    return _C.device_count() > 0


def device_count() -> int:
    return _C.device_count()


def is_initialized() -> bool:
    """True once a device has been opened (first tensor or query)."""
    return _C.is_initialized()


def current_device() -> int:
    return _C.current_device()


def set_device(device: _DeviceLike) -> None:
    _C.set_device(_index(device))


def synchronize(device: _DeviceLike = None) -> None:
    """Wait for all work queued on ``device`` (the current one by default)."""
    _C.synchronize(_index(device))


class device:
    """Context manager that makes ``device`` current, like ``torch.cuda.device``."""

    def __init__(self, device: _DeviceLike):
        self.index = _index(device) if device is not None else -1
        self.previous = -1

    def __enter__(self):
        self.previous = _C.current_device()
        if self.index >= 0 and self.index != self.previous:
            _C.set_device(self.index)
        return self

    def __exit__(self, *exc):
        if self.index >= 0 and self.index != self.previous:
            _C.set_device(self.previous)
        return False


@dataclass(frozen=True)
class VulkanDeviceProperties:
    """What a Vulkan device is and can do (``torch.vulkan.get_device_properties``)."""

    name: str
    device_type: str
    vendor_id: int
    device_id: int
    driver_name: str
    driver_info: str
    api_version: str
    driver_version: int
    total_memory: int
    memory_heaps: list = field(repr=False)
    subgroup_size: int
    max_shared_memory: int
    max_workgroup_invocations: int
    max_workgroup_size: tuple
    max_workgroup_count: tuple
    max_push_constants: int
    max_allocation_size: int
    float16: bool
    bfloat16: bool
    float64: bool
    int8: bool
    int16: bool
    int64: bool
    storage_8bit: bool
    storage_16bit: bool
    int64_atomics: bool
    push_descriptor: bool
    cooperative_matrix: bool
    cooperative_matrix2: bool
    cooperative_matrix_shapes: list = field(repr=False)


def get_device_properties(device: _DeviceLike = None) -> VulkanDeviceProperties:
    return VulkanDeviceProperties(**_C.get_device_properties(_index(device)))


def get_device_name(device: _DeviceLike = None) -> str:
    return get_device_properties(device).name


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """Like ``torch.cuda.is_bf16_supported``: bfloat16 tensors work on every
    vulkan device (stored as 16 bits, computed in float32 where the device has
    no bfloat16 arithmetic); ``including_emulation=False`` asks whether the
    device has bfloat16 arithmetic itself (VK_KHR_shader_bfloat16)."""
    return including_emulation or get_device_properties().bfloat16
