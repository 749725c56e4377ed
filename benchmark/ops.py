"""Op benchmarks: vulkan next to cuda (when present) in one process.

Each case is timed on each device after warm-up, synchronized, as the median
of several repetitions; bandwidth cases report GB/s (bytes read + written per
second), latency cases microseconds per op. The last column is the vulkan
figure relative to cuda (bandwidth: vulkan/cuda, time: cuda/vulkan, so 1.0
means parity and higher is better for vulkan).

    python benchmark/ops.py [--quick] [--json out.json]
"""

import argparse
import json
import os
import statistics
import time

import torch

import torchvulkan  # noqa: F401  (registers the device)

MiB = 1 << 20
# A case whose op is not native yet raises instead of timing the CPU fallback.
os.environ["TORCHVULKAN_STRICT"] = "1"


def sync(device):
    if device == "cuda":
        torch.cuda.synchronize()
    else:
        torch.vulkan.synchronize()


def timeit(fn, device, reps, inner):
    fn()
    sync(device)
    samples = []
    for _ in range(reps):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        sync(device)
        samples.append((time.perf_counter() - start) / inner)
    return statistics.median(samples)


def bandwidth_cases(size_bytes):
    """(name, dtype, setup(device) -> (fn, bytes moved))."""

    def elements(dtype):
        return size_bytes // torch.tensor([], dtype=dtype).element_size()

    cases = []
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        def binary(device, dtype=dtype, op=torch.add):
            a = torch.empty(elements(dtype) // 2, dtype=dtype, device=device).fill_(1)
            b = torch.empty_like(a).fill_(2)
            c = torch.empty_like(a)
            return (lambda: op(a, b, out=c)), 3 * a.nbytes

        def unary(device, dtype=dtype, op=torch.nn.functional.gelu):
            a = torch.empty(elements(dtype), dtype=dtype, device=device).fill_(1)
            return (lambda: op(a)), 2 * a.nbytes

        cases.append((f"add {dtype}", binary))
        cases.append((f"mul {dtype}", lambda device, dtype=dtype: binary(device, dtype, torch.mul)))
        cases.append((f"gelu {dtype}", unary))
        def copy(device, dtype=dtype):
            a = torch.empty(elements(dtype), dtype=dtype, device=device).fill_(1)
            b = torch.empty_like(a)
            return (lambda: b.copy_(a)), 2 * a.nbytes

        def fill(device, dtype=dtype):
            a = torch.empty(elements(dtype), dtype=dtype, device=device)
            return (lambda: a.fill_(2)), a.nbytes

        cases.append((f"copy {dtype}", copy))
        cases.append((f"fill {dtype}", fill))

    def convert(device):
        a = torch.empty(elements(torch.float32), device=device).fill_(1)
        b = torch.empty_like(a, dtype=torch.bfloat16)
        return (lambda: b.copy_(a)), a.nbytes + b.nbytes

    def transposed(device):
        n = int((size_bytes // 4) ** 0.5)
        a = torch.empty(n, n, device=device).fill_(1)
        b = torch.empty(n, n, device=device)
        return (lambda: b.copy_(a.t())), 2 * a.nbytes

    def transposed_add(device):
        n = int((size_bytes // 8) ** 0.5)
        a = torch.empty(n, n, device=device).fill_(1)
        b = torch.empty(n, n, device=device).fill_(2)
        c = torch.empty(n, n, device=device)
        return (lambda: torch.add(a.t(), b, out=c)), 3 * a.nbytes

    cases.append(("convert f32->bf16", convert))
    cases.append(("transposed copy f32", transposed))
    cases.append(("transposed add f32", transposed_add))
    return cases


def chain_case(device, length=1000):
    """1000 dependent adds on 4096 floats: per-op overhead, not bandwidth."""
    a = torch.empty(4096, device=device).fill_(1)
    b = torch.empty_like(a).fill_(1e-3)

    def run():
        for _ in range(length):
            a.add_(b)

    return run, length


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="small sizes, for a CPU driver")
    parser.add_argument("--json")
    args = parser.parse_args()
    devices = ["vulkan"] + (["cuda"] if torch.cuda.is_available() else [])
    size = (4 if args.quick else 256) * MiB
    reps, inner = (3, 2) if args.quick else (7, 10)
    print(f"vulkan: {torch.vulkan.get_device_name()}" + (f" | cuda: {torch.cuda.get_device_name()}" if "cuda" in devices else ""))
    rows = []
    header = f"{'case':28s}" + "".join(f"{d + ' GB/s':>14s}" for d in devices) + ("   vulkan/cuda" if len(devices) > 1 else "")
    print(f"\nbandwidth, {size // MiB} MiB tensors\n" + header)
    for name, setup in bandwidth_cases(size):
        figures = {}
        try:
            for device in devices:
                fn, nbytes = setup(device)
                figures[device] = nbytes / timeit(fn, device, reps, inner) / 1e9
                del fn
        except RuntimeError as error:
            print(f"{name:28s}  not native: {str(error).splitlines()[0][:80]}")
            continue
        ratio = figures["vulkan"] / figures["cuda"] if "cuda" in figures else None
        rows.append({"case": name, "unit": "GB/s", **figures, "ratio": ratio})
        print(f"{name:28s}" + "".join(f"{figures[d]:14.1f}" for d in devices) + (f"{ratio:14.2f}" if ratio else ""))

    print("\ndependent chain of 1000 adds on 4096 floats\n" + f"{'case':28s}" + "".join(f"{d + ' us/op':>14s}" for d in devices))
    figures = {}
    for device in devices:
        fn, count = chain_case(device)
        figures[device] = timeit(fn, device, reps, 1) / count * 1e6
    ratio = figures["cuda"] / figures["vulkan"] if "cuda" in figures else None
    rows.append({"case": "dependent add chain", "unit": "us/op", **figures, "ratio": ratio})
    print(f"{'dependent add chain':28s}" + "".join(f"{figures[d]:14.2f}" for d in devices) + (f"{ratio:14.2f}" if ratio else ""))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
