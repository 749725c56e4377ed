"""Timing shared by the benchmark scripts: synchronizing a device, warming
it up, and timing calls by the host's clock and by GPU timing events."""

import math
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


def warm_up(fn, device, calls=1, seconds=2.0):
    """Calls fn at least `calls` times and for `seconds`, synchronizing only
    every 20 ms so that the GPU never waits on the host: an idle H200 runs at
    345 MHz and reaches its 1980 only after one to two seconds of sustained
    work, and falls back about two seconds after the work stops
    (docs/measurements.md, 2026-12-04, sixth session: nvidia-smi's clock log
    beside kernel_times.py, whose quarter second of warm-up with a
    synchronization per call timed its cases at 345 MHz, 4-5x slow). Two
    seconds cover the rise after any idle time between cases (making the
    next case's operands). The seconds count from the end of a first call:
    that call may compile pipelines for seconds with the GPU idle (seventh
    session: in the first process after a build, whose pipelines were not
    in the cache yet, exactly the cases that were first to use a pipeline
    read 4-5x slow, those reusing one read as in later processes)."""
    fn()
    sync(device)
    until, done = time.perf_counter() + seconds, 1
    synced = time.perf_counter()
    while done < calls or time.perf_counter() < until:
        fn()
        done += 1
        if time.perf_counter() - synced > 0.02:
            sync(device)
            synced = time.perf_counter()
    sync(device)


def until_stable(measure, tolerance=0.03, rounds=6):
    """Calls measure() (seconds, or any figure that falls as speed rises)
    until two calls in a row agree within `tolerance`, at most `rounds`
    times; returns the last figure: the clock can still be rising after
    warm_up, or have fallen during host-side work between timings (2026-12-04,
    fifth session: a 4096^3 float16 product read 151 TFLOP/s after a second
    of warm-up, 190 in the next timing of the same process)."""
    previous = None
    for _ in range(rounds):
        figure = measure()
        if previous is not None and abs(figure - previous) <= tolerance * previous:
            break
        previous = figure
    return figure


def timeit(fn, device, reps, inner, block_s=0.0):
    """Median seconds per call after a warm-up, by the host's clock and by the
    device's own (timing events around the calls), so host overhead shows as
    the gap; repeated until the device's figure is stable. With block_s,
    each timed block takes at least `inner` calls and enough for about
    block_s seconds of the device's time, as torch.utils.benchmark's
    blocked_autorange sizes its blocks: three calls of a 14 us product a
    block measured mostly the synchronization after them (about 30 us on
    vulkan and 15 on cuda, docs/measurements.md)."""
    warm_up(fn, device)
    if block_s:
        start, end = (torch.Event(device=device, enable_timing=True) for _ in range(2))
        start.record()
        for _ in range(10):
            fn()
        end.record()
        sync(device)
        per_call = start.elapsed_time(end) / 1e3 / 10
        inner = max(inner, math.ceil(block_s / max(per_call, 1e-9)))
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
