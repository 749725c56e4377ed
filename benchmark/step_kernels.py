"""Where the MNIST benchmark's time goes on the vulkan device: the host's
clock against the GPU's own time per kernel.

For each hidden width, mnist_benchmark.py's forward + backward (or, with
--step, the whole Adam step) is timed by the host's clock as
mnist_benchmark.py times it (median_time), then run with torchvulkan._C.profile_kernels on, which
brackets every dispatch with GPU timestamps (each dispatch then waits for
the ones before it, so each figure is that kernel alone). The gap between
the host's time and the kernels' sum is time the GPU sat idle: recording,
submits, batch boundaries, synchronization.

    python benchmark/step_kernels.py [--h 131072,393216] [--reps 20] [--step]
"""

import argparse
import statistics

import torch

import torchvulkan  # noqa: F401 (registers the device)
from kernel_times import kernel_times
from mnist_benchmark import median_time, training


def kernel_sums(fn, reps):
    """{kernel: median nanoseconds a call}, dispatches of a kernel within a call summed."""
    per_call = [{name: sum(ns) for name, ns in kernel_times(fn, 1).items()} for _ in range(reps)]
    names = set().union(*per_call)
    return {name: statistics.median(c.get(name, 0) for c in per_call) for name in names}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--h", default="131072,393216")
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--step", action="store_true", help="the whole Adam step, not forward + backward")
    args = parser.parse_args()
    for h in (int(v) for v in args.h.split(",")):
        forward_backward, step, _, _ = training("vulkan", h, torch.float16)
        fn = step if args.step else forward_backward
        wall = median_time(fn, "vulkan", args.reps)
        kernels = kernel_sums(fn, args.reps)
        busy = sum(kernels.values())
        print(f"h={h} {'step' if args.step else 'forward+backward'}: host {wall * 1e6:.0f} us, "
              f"kernels {busy / 1e3:.0f} us ({len(kernels)} kernels)")
        for name, ns in sorted(kernels.items(), key=lambda kv: -kv[1]):
            print(f"  {ns / 1e3:9.1f} us  {name}")


if __name__ == "__main__":
    main()
