"""GPU time of each kernel behind benchmark/ops.py's matrix-product and
convolution cases.

While torchvulkan._C.profile_kernels is on, every dispatch waits for the
commands before it and is bracketed by two GPU timestamps
(csrc/runtime/stream.h), so each figure is one kernel alone, launch
included: the split-K product and its reduction, a conversion before a
product, and so on. Per case, each kernel's median time per call (its
TFLOP/s column: the whole case's work over that kernel's time) and the
case's TFLOP/s from their sum, once two rounds of --reps calls agree
(after timing.warm_up's two seconds: with a quarter second and a
synchronization per call a 4096^3 float16 product read 3624 us here, at
the idle clock, against 735). The first line is the mode's floor: what a
one-element add reads the same way.

    python benchmark/kernel_times.py [--match "mnist,gemm 4096"] [--reps 20] [--quick]
"""

import argparse
import collections
import statistics

import torch

import torchvulkan
from ops import conv_cases, matmul_cases
from timing import until_stable, warm_up


def kernel_times(fn, reps):
    """{kernel name: [nanoseconds of each call's dispatches of it]}, `reps` calls."""
    torchvulkan._C.profile_kernels(True, 0)
    try:
        for _ in range(reps):
            fn()
        torch.vulkan.synchronize()
    finally:
        torchvulkan._C.profile_kernels(False, 0)
    per_kernel = collections.defaultdict(list)
    for name, ns in torchvulkan._C.kernel_times(0):
        per_kernel[name].append(ns)
    return per_kernel


def profile_floor(reps):
    """Microseconds a one-element add's dispatch reads in this mode: the full
    barrier, the two timestamps and the launch that every figure includes,
    around a kernel with nothing to do. Small kernels are best read net of
    it (torch.profiler's CUDA kernel times have no such part)."""
    x = torch.ones(1, device="vulkan")
    warm_up(lambda: x.add_(1), "vulkan")
    return statistics.median(ns for times in kernel_times(lambda: x.add_(1), reps).values() for ns in times) / 1e3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--match", help="comma-separated substrings of case names")
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="small sizes, for a CPU driver")
    args = parser.parse_args()
    cases = matmul_cases(args.quick) + [c for c in conv_cases(args.quick) if c[1] == "TFLOP/s"]
    if args.match:
        cases = [c for c in cases if any(m in c[0] for m in args.match.split(","))]
    print(f"floor: {profile_floor(args.reps):.1f} us a dispatch (a one-element add, timed the same way)")
    print(f"{'case':34} {'kernel':34} {'calls':>5} {'us/call':>9} {'TFLOP/s':>8}")
    for name, _, setup in cases:
        fn, work = setup("vulkan")
        warm_up(fn, "vulkan")
        found = {}

        def measure():
            per_kernel = kernel_times(fn, args.reps)
            # A kernel dispatched k times a call: k entries per call.
            found["calls"] = {kernel: len(times) // args.reps for kernel, times in per_kernel.items()}
            found["us"] = {kernel: statistics.median(times) / 1e3 * found["calls"][kernel]
                           for kernel, times in per_kernel.items()}
            return sum(found["us"].values())
        total = until_stable(measure)
        for kernel, us in found["us"].items():
            print(f"{name:34} {kernel:34} {found['calls'][kernel]:5} {us:9.1f} {work / us / 1e3:8.1f}")
        print(f"{name:34} {'all':34} {'':5} {total:9.1f} {work / total / 1e3:8.1f}")
        del fn


if __name__ == "__main__":
    main()
