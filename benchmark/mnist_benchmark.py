"""The MNIST network's training step on each device, across hidden widths.

    SimpleNN(h) = Flatten -> Linear(784, h) -> ReLU -> Linear(h, 10)

For h from 64 to 393216 (about 50K to 312M parameters), batch 128, it times
forward + cross-entropy loss + backward, and separately the whole step with
Adam, as the median of --reps synchronized runs after a warm-up, and records
each device's peak reserved memory. float16 on GPUs, float32 on the CPU.
Devices: vulkan, cuda and mps where present, and cpu; each runs in its own
process so that none sees another's allocations.

    python benchmark/mnist_benchmark.py [--devices vulkan,cuda,cpu] [--sizes 64,4096]
                                        [--json out.json] [--plot out.png] [--report]

It prints a table with the vulkan/cuda time ratio per size and writes the
JSON and a log-log plot (matplotlib) of step time against parameter count.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import torch

from timing import sync, until_stable, warm_up

SIZES = [64, 256, 1024, 4096, 16384, 65536, 131072, 262144, 393216]
BATCH = 128


def parameters(h):
    return 784 * h + h + 10 * h + 10


def peak_reserved(device):
    if device == "cuda":
        return torch.cuda.max_memory_reserved()
    if device == "vulkan":
        return torch.vulkan.max_memory_reserved()
    if device == "mps":
        return torch.mps.driver_allocated_memory()
    return None


def reset_memory(device):
    if device == "cuda":
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
    elif device == "vulkan":
        torch.vulkan.empty_cache()
        torch.vulkan.reset_peak_memory_stats()
    elif device == "mps":
        torch.mps.empty_cache()


def median_time(fn, device, reps):
    # Timings until two agree after timing.warm_up's two seconds: with a
    # second of warm-up alone the first timing of a size, forward +
    # backward, read 2.9 ms at h = 65536 on the H200 in two sessions, more
    # than the whole step timed right after it (1.65 ms; the clock). The CPU
    # takes one timing: its steps of up to 0.6 s would make rounds long.
    warm_up(fn, device, calls=3)

    def measure():
        samples = []
        for _ in range(reps):
            start = time.perf_counter()
            fn()
            sync(device)
            samples.append(time.perf_counter() - start)
        return statistics.median(samples)
    return measure() if device == "cpu" else until_stable(measure)


def training(device, h, dtype):
    """The network on `device`, a batch, and (forward_backward, step, model, optimizer)."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, h), torch.nn.ReLU(),
                                torch.nn.Linear(h, 10)).to(device=device, dtype=dtype)
    # Data made on the host: the benchmark times training, not random number generation.
    x = torch.randn(BATCH, 1, 28, 28, dtype=dtype).to(device)
    y = torch.randint(0, 10, (BATCH,)).to(device)
    loss_fn = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)

    def forward_backward():
        model.zero_grad(set_to_none=True)
        loss_fn(model(x), y).backward()

    def step():
        optimizer.zero_grad(set_to_none=True)
        loss_fn(model(x), y).backward()
        optimizer.step()

    return forward_backward, step, model, optimizer


def measure(device, h, reps):
    dtype = torch.float32 if device == "cpu" else torch.float16
    reset_memory(device)
    forward_backward, step, model, optimizer = training(device, h, dtype)

    result = {"h": h, "parameters": parameters(h), "dtype": str(dtype)[6:],
              "forward_backward_s": median_time(forward_backward, device, reps),
              "step_s": median_time(step, device, reps)}
    result["peak_reserved_bytes"] = peak_reserved(device)
    del model, optimizer
    return result


def worker(device, sizes, reps, out):
    if device == "vulkan":
        import torchvulkan  # noqa: F401
    if device == "cpu":
        torch.set_num_threads(os.cpu_count() or 1)
    rows = []
    for h in sizes:
        try:
            rows.append(measure(device, h, reps))
        except RuntimeError as error:  # out of memory, or an op without a kernel in strict mode
            rows.append({"h": h, "parameters": parameters(h), "error": str(error).splitlines()[0][:200]})
        print(f"  {device} h={h}: {rows[-1]}", file=sys.stderr, flush=True)
        with open(out, "w") as f:  # after each size, so a cut-off run keeps what it measured
            json.dump(rows, f)


def available(device):
    if device == "cpu":
        return True
    if device == "cuda":
        return torch.cuda.is_available()
    if device == "mps":
        return torch.backends.mps.is_available()
    code = "import torchvulkan, sys; sys.exit(0 if torchvulkan.is_available() else 1)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


def plot(results, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for device, rows in results.items():
        ok = [r for r in rows if "step_s" in r]
        ax.plot([r["parameters"] for r in ok], [r["step_s"] * 1e3 for r in ok], marker="o", label=device)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("parameters")
    ax.set_ylabel("training step with Adam (ms)")
    ax.set_title(f"MNIST SimpleNN(h), batch {BATCH} (fp16 on GPUs, fp32 on CPU)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--devices", default="vulkan,cuda,mps,cpu")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--json", default="mnist_benchmark.json")
    parser.add_argument("--plot", default="mnist_benchmark.png")
    parser.add_argument("--report", action="store_true",
                        help="measure nothing: tabulate and plot the per-device files (<json>.<device>) of a run")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.worker:
        worker(args.worker, sizes, args.reps, args.out)
        return

    results = {}
    for device in args.devices.split(","):
        out = f"{args.json}.{device}"
        if not args.report:
            if not available(device):
                continue
            env = dict(os.environ, TORCHVULKAN_STRICT="1")
            subprocess.run([sys.executable, __file__, "--worker", device, "--sizes", args.sizes,
                            "--reps", str(args.reps), "--out", out], check=True, env=env)
        if os.path.exists(out):
            with open(out) as f:
                results[device] = json.load(f)
    with open(args.json, "w") as f:
        json.dump(results, f, indent=1)
    plot(results, args.plot)

    devices = list(results)
    print(f"\n{'h':>7s} {'params':>10s}" + "".join(f" {d + ' ms':>11s}" for d in devices) +
          ("  vulkan/cuda fwd+bwd  step  mem" if {"vulkan", "cuda"} <= set(devices) else ""))
    for i, h in enumerate(sizes):
        line = f"{h:7d} {parameters(h):10d}"
        for d in devices:
            r = results[d][i] if i < len(results[d]) else {}
            line += f" {r['step_s'] * 1e3:11.3f}" if "step_s" in r else f" {'error':>11s}"
        if {"vulkan", "cuda"} <= set(devices):
            v = results["vulkan"][i] if i < len(results["vulkan"]) else {}
            c = results["cuda"][i] if i < len(results["cuda"]) else {}
            if "step_s" in v and "step_s" in c:
                line += (f"  {v['forward_backward_s'] / c['forward_backward_s']:19.2f}"
                         f" {v['step_s'] / c['step_s']:5.2f}"
                         f" {v['peak_reserved_bytes'] / c['peak_reserved_bytes']:4.2f}")
        print(line)


if __name__ == "__main__":
    main()
