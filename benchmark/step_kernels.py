"""Where the MNIST benchmark's time goes on the vulkan device: the host's
clock against the GPU's own time per kernel.

For each hidden width, mnist_benchmark.py's forward + backward (or, with
--step, the whole Adam step) is timed by the host's clock as
mnist_benchmark.py times it (median_time), then run with torchvulkan._C.profile_kernels on, which
brackets every dispatch with GPU timestamps (each dispatch then waits for
the ones before it, so each figure is that kernel alone). The gap between
the host's time and the kernels' sum is time the GPU sat idle: recording,
submits, batch boundaries, synchronization.

With --device cuda the same network runs on cuda (in its own process, as
mnist_benchmark.py keeps the two apart) and torch.profiler's CUDA kernel
times take the GPU timestamps' place, so the two lists compare kernel by
kernel.

    python benchmark/step_kernels.py [--h 131072,393216] [--reps 20] [--step] [--device cuda]
"""

import argparse
import statistics

import torch

from mnist_benchmark import median_time, training


def medians(per_call):
    """{kernel: median over the calls} from one {kernel: ns} per call (0 where a call lacks it)."""
    names = set().union(*per_call)
    return {name: statistics.median(c.get(name, 0) for c in per_call) for name in names}


def kernel_sums(fn, reps):
    """{kernel: median nanoseconds a call}, dispatches of a kernel within a call summed."""
    from kernel_times import kernel_times  # imports torchvulkan
    return medians([{name: sum(ns) for name, ns in kernel_times(fn, 1).items()} for _ in range(reps)])


def cuda_kernel_sums(fn, reps):
    """kernel_sums through torch.profiler's CUDA activity: {kernel: median ns a call}."""
    from torch.profiler import ProfilerActivity, profile
    per_call = []
    for _ in range(reps):
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            fn()
            torch.cuda.synchronize()
        sums = {}
        for event in prof.events():
            if event.device_type == torch.autograd.DeviceType.CUDA:
                sums[event.name] = sums.get(event.name, 0) + event.device_time_total * 1e3
        per_call.append(sums)
    return medians(per_call)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--h", default="131072,393216")
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--step", action="store_true", help="the whole Adam step, not forward + backward")
    parser.add_argument("--device", default="vulkan", choices=["vulkan", "cuda"])
    args = parser.parse_args()
    if args.device == "vulkan":
        # Not with cuda: both in one process trip the autograd engine's
        # stream assertion (pytorch/pytorch#161129).
        import torchvulkan  # noqa: F401
    for h in (int(v) for v in args.h.split(",")):
        forward_backward, step, _, _ = training(args.device, h, torch.float16)
        fn = step if args.step else forward_backward
        wall = median_time(fn, args.device, args.reps)
        kernels = (cuda_kernel_sums if args.device == "cuda" else kernel_sums)(fn, args.reps)
        busy = sum(kernels.values())
        print(f"h={h} {'step' if args.step else 'forward+backward'}: host {wall * 1e6:.0f} us, "
              f"kernels {busy / 1e3:.0f} us ({len(kernels)} kernels)")
        if args.device == "vulkan":
            from kernel_times import profile_floor
            print(f"  each dispatch's figure includes the profiling floor, {profile_floor(args.reps):.1f} us "
                  f"(a one-element add, timed the same way)")
        for name, ns in sorted(kernels.items(), key=lambda kv: -kv[1]):
            print(f"  {ns / 1e3:9.1f} us  {name}")


if __name__ == "__main__":
    main()
