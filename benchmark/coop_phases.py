"""Where a matrix-product kernel's time goes, workgroup by workgroup.

Runs gemm_tiles.py's cases on a phases configuration, which writes clock
stamps (matmul/phase_stamps.glsl; the device needs VK_KHR_shader_clock):
q128, the tensor-core tier's v128 (float16), or qt128, the portable tier's
t128wv (float32 where the tensor-core tier takes the 16-bit types), and
reads each workgroup's stamps back (torchvulkan._C.gemm_phase_stamps). Per
case:
- the kernel's time (kernel_times.py's GPU timestamps) and TFLOP/s;
- the span from the first workgroup's start to the last one's end on the
  device clock, and how many workgroups were in flight on average (their
  summed lifetimes over the span) and at most;
- each phase's median and 90th percentile in SM cycles and, at the clock
  the stamps imply, microseconds: prologue (start to step 0 staged in
  shared memory: the first loads' latency), loop (the remaining steps),
  epilogue (from the loop's last barrier to the last store issued), and
  the loop's cycles a step of K against the workgroup's multiplications.

    python benchmark/coop_phases.py [--tile q128|qt128] [--dtype float16] [--match "g^T@x,4096^3"] [--quick]
"""

import argparse
import os

import torch

import torchvulkan
from gemm_tiles import CASES, QUICK, operands
from kernel_times import kernel_times
from timing import warm_up

STEP_K = {"q128": 32, "qt128": 8}  # each configuration's step of K (128 x 128 tiles)


def percentile(values, q):
    return values.float().quantile(q).item()


def report(name, stamps, kernel_us, flops, steps, step_k):
    start_ns, start_cycles, staged, looped, finished, end_ns = stamps.unbind(1)
    span = (end_ns.max() - start_ns.min()).item()
    lifetimes = end_ns - start_ns
    # In flight at each start or end: +1 at a start, -1 at an end, in time order.
    events = torch.cat([torch.stack([start_ns, torch.ones_like(start_ns)], 1),
                        torch.stack([end_ns, -torch.ones_like(end_ns)], 1)])
    order = torch.argsort(events[:, 0] * 2 + (events[:, 1] > 0).long(), stable=True)
    most = torch.cumsum(events[order, 1], 0).max().item()
    cycles = finished - start_cycles
    ghz = percentile(cycles.double() / lifetimes.clamp(min=1).double(), 0.5)
    print(f"{name}: {len(stamps)} workgroups, kernel {kernel_us:.1f} us ({flops / kernel_us / 1e6:.1f} TFLOP/s), "
          f"span {span / 1e3:.1f} us, in flight {lifetimes.sum().item() / max(span, 1):.1f} on average, "
          f"{most} at most, {ghz:.2f} GHz by the stamps")
    for phase, values in (("prologue", staged - start_cycles), ("loop", looped - staged),
                          ("epilogue", finished - looped), ("workgroup", cycles)):
        p50, p90 = percentile(values, 0.5), percentile(values, 0.9)
        print(f"  {phase:9} median {p50:9.0f} cycles ({p50 / ghz / 1e3:7.2f} us), "
              f"p90 {p90:9.0f} ({p90 / ghz / 1e3:7.2f} us)")
    if steps > 1:
        per_step = percentile(looped - staged, 0.5) / (steps - 1)
        print(f"  loop: {per_step:.0f} cycles a step of K after the first ({steps} steps), "
              f"{2 * 128 * 128 * step_k / per_step:.0f} flops a cycle for the workgroup")
    # When the workgroups started: the last ones start how long before the end.
    late = (end_ns.max() - start_ns.max()).item()
    print(f"  last start {late / 1e3:.1f} us before the end; first end "
          f"{(end_ns.min() - start_ns.min()).item() / 1e3:.1f} us after the start")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tile", default="q128", choices=sorted(STEP_K))
    parser.add_argument("--dtype", default="float16")
    parser.add_argument("--match", default="g^T@x,x@W^T,4096^3,8192^3,256^3",
                        help="comma-separated parts of gemm_tiles.py's case names")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a CPU driver")
    args = parser.parse_args()
    # Read at the first product (csrc/aten/ops/matmul/gemm.cpp's forced_tile).
    os.environ["TORCHVULKAN_GEMM_TILE"] = args.tile
    step_k = STEP_K[args.tile]
    for case in QUICK if args.quick else CASES:
        name, (m, k, n), _, _, batch = case
        if not any(part in name for part in args.match.split(",")):
            continue
        a, b = operands(torch, case, getattr(torch, args.dtype), "vulkan")
        fn = lambda: torch.matmul(a, b)  # noqa: E731
        warm_up(fn, "vulkan")
        times = kernel_times(fn, 5)
        kernel = next(found for found in times if "_phases." in found)
        kernel_us = sorted(times[kernel])[len(times[kernel]) // 2] / 1e3
        fn()
        torch.vulkan.synchronize()
        report(name, torchvulkan._C.gemm_phase_stamps().cpu(), kernel_us, 2 * m * n * k * batch,
               (k + step_k - 1) // step_k, step_k)
        del a, b


if __name__ == "__main__":
    main()
