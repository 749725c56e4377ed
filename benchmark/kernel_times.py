"""GPU time of each kernel behind benchmark/ops.py's matrix-product cases.

While torchvulkan._C.profile_kernels is on, every dispatch waits for the
commands before it and is bracketed by two GPU timestamps
(csrc/runtime/stream.h), so each figure is one kernel alone, launch
included: the split-K product and its reduction, a conversion before a
product, and so on. Per case, each kernel's median time per call and the
case's TFLOP/s from their sum.

    python benchmark/kernel_times.py [--match "mnist,gemm 4096"] [--reps 20] [--quick]
"""

import argparse
import collections
import statistics

import torch

import torchvulkan
from ops import matmul_cases
from timing import warm_up


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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--match", help="comma-separated substrings of case names")
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="small sizes, for a CPU driver")
    args = parser.parse_args()
    cases = matmul_cases(args.quick)
    if args.match:
        cases = [c for c in cases if any(m in c[0] for m in args.match.split(","))]
    seconds = 1.0  # an idle GPU's clock rises only after some busy time (timing.py)
    print(f"{'case':34} {'kernel':34} {'calls':>5} {'us/call':>9} {'TFLOP/s':>8}")
    for name, _, setup in cases:
        fn, work = setup("vulkan")
        warm_up(fn, "vulkan", seconds=seconds)
        seconds = 0.25
        per_kernel = kernel_times(fn, args.reps)
        total = 0.0
        for kernel, times in per_kernel.items():
            # A kernel dispatched k times a call: k consecutive entries per call.
            per_call = len(times) // args.reps
            us = statistics.median(times) / 1e3 * per_call
            total += us
            print(f"{name:34} {kernel:34} {per_call:5} {us:9.1f} {work / us / 1e3:8.1f}")
        print(f"{name:34} {'all':34} {'':5} {total:9.1f} {work / total / 1e3:8.1f}")
        del fn


if __name__ == "__main__":
    main()
