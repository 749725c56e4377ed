"""Per-op GPU time of the MNIST training step, vulkan next to cuda.

Every aten op the step dispatches is bracketed by two timing events on its
device (a TorchDispatchMode), so each op's figure is the device's own time
from the end of the op before it to its own end: kernel time plus whatever
barrier or launch gap precedes it. Ops are grouped by name and operand
shapes and summed over --reps steps, then printed per device, largest first,
with the step's total by the same events and by the host's clock.

    python benchmark/op_profile.py [--h 65536] [--devices vulkan,cuda] [--reps 10] [--top 25]

The model and step are benchmark/mnist_benchmark.py's (float16, batch 128,
cross entropy, Adam).
"""

import argparse
import collections
import subprocess
import sys
import time

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from mnist_benchmark import training
from timing import sync, warm_up

def describe(func, args):
    shapes = [tuple(a.shape) if isinstance(a, torch.Tensor) else f"{len(a)} tensors" for a in args
              if isinstance(a, torch.Tensor) or (isinstance(a, (list, tuple)) and a and isinstance(a[0], torch.Tensor))]
    return f"{func.__name__}{shapes}"


class EventTimer(TorchDispatchMode):
    """Records (op, start event, end event) around every op on `device`."""

    def __init__(self, device):
        super().__init__()
        self.device = device
        self.records = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        start = torch.Event(device=self.device, enable_timing=True)
        end = torch.Event(device=self.device, enable_timing=True)
        start.record()
        out = func(*args, **(kwargs or {}))
        end.record()
        self.records.append((describe(func, args), start, end))
        return out


def profile(device, h, reps):
    if device == "vulkan":
        import torchvulkan  # noqa: F401  (registers the device)
    _, step, _, _ = training(device, h, torch.float16)
    warm_up(step, device, calls=3)
    began = time.perf_counter()
    for _ in range(reps):
        step()
    sync(device)
    wall = (time.perf_counter() - began) / reps

    timer = EventTimer(device)
    with timer:
        for _ in range(reps):
            step()
    sync(device)
    totals = collections.defaultdict(float)
    counts = collections.Counter()
    for name, start, end in timer.records:
        totals[name] += start.elapsed_time(end) * 1e3 / reps  # microseconds per step
        counts[name] += 1
    return wall * 1e6, totals, {k: v / reps for k, v in counts.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--h", type=int, default=65536)
    parser.add_argument("--devices", default="vulkan,cuda")
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    devices = [d for d in args.devices.split(",") if d != "cuda" or torch.cuda.is_available()]
    if len(devices) > 1:
        # One process per device, and torchvulkan imported only in the vulkan
        # one: once a PrivateUse1 backend is registered, PyTorch takes it for
        # the accelerator and a cuda backward fails its autograd engine's
        # "opt_ready_stream && opt_parent_stream" assertion
        # (pytorch/pytorch#161129).
        for device in devices:
            subprocess.run([sys.executable, __file__, "--h", str(args.h), "--devices", device,
                            "--reps", str(args.reps), "--top", str(args.top)], check=True)
        return
    for device in devices:
        wall, totals, counts = profile(device, args.h, args.reps)
        print(f"\n{device}, h={args.h}: step {wall:.0f} us by the host's clock, "
              f"{sum(totals.values()):.0f} us summed over its ops by events")
        for name, us in sorted(totals.items(), key=lambda kv: -kv[1])[:args.top]:
            print(f"  {us:9.1f} us  x{counts[name]:<4g} {name[:150]}")


if __name__ == "__main__":
    main()
