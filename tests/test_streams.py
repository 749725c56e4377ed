"""torch.vulkan's streams and events (torchvulkan/streams.py, csrc/aten/guard.cpp)."""

import time

import pytest
import torch

from tests.helpers import VK


def busy(n=64):
    """A few hundred microseconds of device work on lavapipe."""
    x = torch.ones(n, n, device=VK)
    for _ in range(4):
        x = x @ x / n
    return x


def test_one_stream_per_device():
    s = torch.vulkan.current_stream()
    assert s == torch.vulkan.default_stream() == torch.vulkan.current_stream(0)
    assert s.device == torch.device("vulkan", 0)
    with torch.vulkan.stream(s), torch.vulkan.stream(None):
        busy()
    with pytest.raises(ValueError, match="one stream"):
        with torch.vulkan.stream(torch.Stream(stream_id=3, device_index=0, device_type=s.device_type)):
            pass
    with pytest.raises(RuntimeError, match="new Stream"):
        torch.Stream(device="vulkan")


def test_event_orders_and_synchronizes():
    event = torch.vulkan.Event()
    assert event.device.type == "vulkan"
    x = busy()
    event.record()
    event.wait()
    event.synchronize()
    assert event.query()
    assert torch.vulkan.current_stream().query()
    torch.testing.assert_close(x.cpu(), torch.ones(64, 64), rtol=0, atol=0)


def test_elapsed_time_is_the_device_time_between_events():
    start, end = torch.vulkan.Event(enable_timing=True), torch.vulkan.Event(enable_timing=True)
    torch.vulkan.synchronize()
    host = time.perf_counter()
    start.record()
    busy(128)
    end.record()
    end.synchronize()
    host_ms = (time.perf_counter() - host) * 1e3
    elapsed = start.elapsed_time(end)
    assert 0 < elapsed <= host_ms
    assert end.elapsed_time(start) == pytest.approx(-elapsed)
    # Nothing between two timestamps: far less time than the work above.
    start.record()
    end.record()
    end.synchronize()
    assert 0 <= start.elapsed_time(end) < elapsed


def test_many_timing_events_reuse_their_slots():
    # More events than one query pool holds, recorded twice over.
    events = [torch.vulkan.Event(enable_timing=True) for _ in range(150)]
    for _ in range(2):
        for event in events:
            busy(8)
            event.record()
        torch.vulkan.synchronize()
        gaps = [a.elapsed_time(b) for a, b in zip(events, events[1:])]
        assert min(gaps) >= 0 and sum(gaps) > 0
    del events
    again = [torch.Event(device="vulkan", enable_timing=True) for _ in range(2)]
    for event in again:
        event.record()
    again[1].synchronize()
    assert again[0].elapsed_time(again[1]) >= 0


def test_elapsed_time_needs_timing_events():
    plain, timed = torch.vulkan.Event(), torch.vulkan.Event(enable_timing=True)
    plain.record()
    timed.record()
    torch.vulkan.synchronize()
    with pytest.raises((RuntimeError, ValueError), match="enable_timing"):
        plain.elapsed_time(timed)
    with pytest.raises((RuntimeError, ValueError), match="recorded"):
        timed.elapsed_time(torch.vulkan.Event(enable_timing=True))
