"""Streams and events (shaped like torch.cuda's).

Each device runs all its work, in order, on one stream: its compute queue.
Events mark a point on it; timing events also write a GPU timestamp there, so
``elapsed_time`` measures the device's own clock, not the host's.
"""

from __future__ import annotations

import contextlib

import torch

from .device import _DeviceLike, _index

# c10::DeviceType::PrivateUse1, a fixed value of PyTorch's ABI.
_PRIVATEUSE1 = 20


class Event:
    """An event on the vulkan device, like ``torch.cuda.Event``: a wrapper of
    ``torch.Event``, which cannot be subclassed (its ``elapsed_time`` accepts
    only its own type)."""

    def __init__(self, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False):
        self.event = torch.Event(device="vulkan", enable_timing=enable_timing, blocking=blocking,
                                 interprocess=interprocess)

    @property
    def device(self) -> torch.device:
        return self.event.device

    def record(self, stream: torch.Stream | None = None) -> None:
        self.event.record(stream)

    def wait(self, stream: torch.Stream | None = None) -> None:
        self.event.wait(stream)

    def query(self) -> bool:
        return self.event.query()

    def synchronize(self) -> None:
        self.event.synchronize()

    def elapsed_time(self, end_event: Event | torch.Event) -> float:
        """Milliseconds of device time from this event to ``end_event``; both
        need ``enable_timing=True`` and must have completed."""
        return self.event.elapsed_time(getattr(end_event, "event", end_event))

    def __repr__(self) -> str:
        return f"torch.vulkan.Event({self.event})"


def current_stream(device: _DeviceLike = None) -> torch.Stream:
    """The stream work on ``device`` runs on: always its one queue."""
    return torch.Stream(stream_id=0, device_index=_index(device), device_type=_PRIVATEUSE1)


def default_stream(device: _DeviceLike = None) -> torch.Stream:
    return current_stream(device)


@contextlib.contextmanager
def stream(s: torch.Stream | None):
    """``torch.cuda.stream``'s shape. Only the device's one stream exists, so
    this accepts it (or None) and changes nothing."""
    if s is not None and (s.device_type != _PRIVATEUSE1 or s.stream_id != 0):
        raise ValueError(f"torchvulkan has one stream per device; got {s}")
    yield
