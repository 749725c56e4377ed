"""Timing shared by the benchmark scripts: synchronizing a device, warming
it up, and timing calls by the host's clock and by GPU timing events."""

import statistics
import time

import torch


def sync(device):
    if device == "cuda":
        torch.cuda.synchronize()
    elif device == "mps":
        torch.mps.synchronize()
    elif device == "vulkan":
        torch.vulkan.synchronize()


def warm_up(fn, device, calls=1, seconds=0.25):
    """Calls fn, synchronized, at least `calls` times and for `seconds`: an
    idle GPU's clock rises only after some busy time (docs/measurements.md,
    2026-12-04, third session: an idle H200 runs at 345 MHz, and a Vulkan
    product issued after a second of idle ran at a fifth of its speed). A
    quarter second does between cases that keep the GPU busy; after seconds
    of host-side work (a new process, a model made on the host) the callers
    take a second."""
    until, done = time.perf_counter() + seconds, 0
    while done < calls or time.perf_counter() < until:
        fn()
        sync(device)
        done += 1


def until_stable(measure, tolerance=0.03, rounds=6):
    """Calls measure() (seconds, or any figure that falls as speed rises)
    until two calls in a row agree within `tolerance`, at most `rounds`
    times; returns the last figure. A warm-up of fixed length is not enough
    where a process uses the H200 only through Vulkan: its clock then falls
    within a fraction of a second of host-side work and took more than a
    second to rise again (docs/measurements.md, 2026-12-04, fifth session:
    a 4096^3 float16 product read 151 TFLOP/s after a second of warm-up, 190
    in the next timing of the same process)."""
    previous = None
    for _ in range(rounds):
        figure = measure()
        if previous is not None and abs(figure - previous) <= tolerance * previous:
            break
        previous = figure
    return figure


def timeit(fn, device, reps, inner):
    """Median seconds per call after a warm-up, by the host's clock and by the
    device's own (timing events around the calls), so host overhead shows as
    the gap; repeated until the device's figure is stable."""
    warm_up(fn, device)
    result = {}

    def measure():
        wall, busy = [], []
        for _ in range(reps):
            start, end = (torch.Event(device=device, enable_timing=True) for _ in range(2))
            began = time.perf_counter()
            start.record()
            for _ in range(inner):
                fn()
            end.record()
            sync(device)
            wall.append((time.perf_counter() - began) / inner)
            busy.append(start.elapsed_time(end) / 1e3 / inner)
        result["wall"], result["busy"] = statistics.median(wall), statistics.median(busy)
        return result["busy"]

    until_stable(measure)
    return result["wall"], result["busy"]
