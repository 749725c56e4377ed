"""Op benchmarks: vulkan next to cuda (when present) in the same run.

Each device runs in its own process (cuda first, in a child that never
imports torchvulkan: with a PrivateUse1 backend registered, PyTorch's
autograd engine asserts on cuda backward passes, pytorch/pytorch#161129).
Each case is timed on each device after a warm-up, synchronized, as the median
of several repetitions. Bandwidth cases report GB/s (bytes read + written per
second), matrix products TFLOP/s, latency cases microseconds per op. The
"vs cuda" column compares vulkan with cuda so that 1.0 is parity and higher is
better for vulkan (throughput: vulkan/cuda; latency: cuda/vulkan). The "by
events" columns are each device's figure by its own GPU timestamps (timing
events around the calls) instead of the host's clock: where one is much
better than the host's figure, host overhead is what is slow.

    python benchmark/ops.py [--quick] [--only elementwise,reduce,matmul,conv,linalg] [--match "gemm 8192,mnist"]
                            [--json out.json]

A case whose op is not native yet is reported as such (strict mode), never
timed through the CPU fallback.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import torch

from timing import timeit

MiB = 1 << 20
os.environ["TORCHVULKAN_STRICT"] = "1"


def filled(shape, dtype, device, value=1.0):
    return torch.empty(shape, dtype=dtype, device=device).fill_(value)


def randn(*shape, device, dtype=torch.float32):
    """Random data made on the host, so no random kernel is needed on the device."""
    return torch.randn(*shape, dtype=dtype).to(device)


def elementwise_cases(size):
    """(name, unit, setup(device) -> (fn, work))."""
    cases = []
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        n = size // torch.tensor([], dtype=dtype).element_size()
        short = str(dtype)[6:]

        def binary(device, dtype=dtype, n=n, op=torch.add):
            a, b, c = filled(n // 2, dtype, device), filled(n // 2, dtype, device, 2), filled(n // 2, dtype, device)
            return (lambda: op(a, b, out=c)), 3 * a.nbytes

        def gelu(device, dtype=dtype, n=n):
            a = filled(n, dtype, device)
            return (lambda: torch.nn.functional.gelu(a)), 2 * a.nbytes

        def copy(device, dtype=dtype, n=n):
            a, b = filled(n, dtype, device), filled(n, dtype, device)
            return (lambda: b.copy_(a)), 2 * a.nbytes

        cases += [(f"add {short}", "GB/s", binary),
                  (f"mul {short}", "GB/s", lambda device, dtype=dtype, n=n: binary(device, dtype, n, torch.mul)),
                  (f"gelu {short}", "GB/s", gelu),
                  (f"copy {short}", "GB/s", copy)]

    def transposed_add(device):
        n = int((size // 8) ** 0.5)
        a, b, c = filled((n, n), torch.float32, device), filled((n, n), torch.float32, device), filled((n, n), torch.float32, device)
        return (lambda: torch.add(a.t(), b, out=c)), 3 * a.nbytes

    def convert(device):
        a = filled(size // 4, torch.float32, device)
        b = torch.empty_like(a, dtype=torch.bfloat16)
        return (lambda: b.copy_(a)), a.nbytes + b.nbytes

    def chain(device):
        a, b = filled(4096, torch.float32, device), filled(4096, torch.float32, device, 1e-3)

        def run():
            for _ in range(1000):
                a.add_(b)

        return run, 1000

    def foreach_addcdiv(device):
        # Adam's _foreach_addcdiv_ over the MNIST benchmark's parameters at h = 65536, float16.
        shapes = [(65536, 784), (65536,), (10, 65536), (10,)]
        p, a, b = ([filled(s, torch.float16, device, v) for s in shapes] for v in (1.0, 0.5, 2.0))
        return (lambda: torch._foreach_addcdiv_(p, a, b, value=-1e-6)), 4 * sum(t.nbytes for t in p)

    return cases + [("transposed add f32", "GB/s", transposed_add), ("convert f32->bf16", "GB/s", convert),
                    ("foreach addcdiv_, Adam's lists f16", "GB/s", foreach_addcdiv),
                    ("1000 dependent adds, 4096 f32", "us/op", chain)]


def reduce_cases(size):
    def full(op):
        def setup(device):
            a = filled(size // 4, torch.float32, device)
            return (lambda: op(a)), a.nbytes
        return setup

    def along(op, dim):
        def setup(device):
            a = filled((4096, size // 4 // 4096), torch.float32, device)
            return (lambda: op(a, dim)), a.nbytes
        return setup

    cols = size // 4 // 4096
    cases = [("sum, all", "GB/s", full(torch.sum)), ("mean, all", "GB/s", full(torch.mean))]
    for dim in (0, 1):
        cases += [(f"sum 4096x{cols} dim {dim}", "GB/s", along(torch.sum, dim)),
                  (f"mean 4096x{cols} dim {dim}", "GB/s", along(torch.mean, dim))]

    # The MNIST benchmark's bias gradient at h = 393216 (batch 128, float16):
    # few rows to reduce, many columns (86 us against cuda's 51 in the
    # sixteenth session's step profile, H100).
    def bias_gradient(device):
        h = 393216 if size >= (1 << 26) else 4096
        g = filled((128, h), torch.float16, device)
        return (lambda: g.sum(0)), g.nbytes
    cases.append(("sum 128xh dim 0 f16, MNIST bias gradient", "GB/s", bias_gradient))

    def rows(op):
        def setup(device):
            a = randn(4096, 4096, device=device)
            return (lambda: op(a)), 2 * a.nbytes
        return setup

    ln = lambda a: torch.nn.functional.layer_norm(a, (4096,))  # noqa: E731

    def cross_entropy(device):
        logits = randn(2048, 32000, device=device)
        target = torch.randint(0, 32000, (2048,), device="cpu").to(device)
        return (lambda: torch.nn.functional.cross_entropy(logits, target)), logits.nbytes

    def embedding(backward):
        def setup(device):
            table = randn(50000, 1024, device=device)
            ids = torch.randint(0, 50000, (8192,)).to(device)
            if not backward:
                return (lambda: torch.nn.functional.embedding(ids, table)), 2 * 8192 * 1024 * 4
            grad = randn(8192, 1024, device=device)
            run = lambda: torch.ops.aten.embedding_dense_backward(grad, ids, 50000, -1, False)  # noqa: E731
            return run, grad.nbytes + table.nbytes
        return setup

    n24 = 1 << 24

    def cat(device):
        a, b = randn(n24 // 2, device=device), randn(n24 // 2, device=device)
        return (lambda: torch.cat([a, b])), 2 * n24 * 4

    def index_select(device):
        a = randn(n24, device=device)
        ids = torch.randint(0, n24, (n24,)).to(device)
        return (lambda: a.index_select(0, ids)), n24 * (4 + 8 + 4)

    def sort(device):
        a = randn(n24, device=device)
        return (lambda: torch.sort(a)), n24 * (4 + 4 + 8)

    return cases + [("softmax 4096x4096", "GB/s", rows(lambda a: torch.softmax(a, -1))),
                    ("layer_norm 4096x4096", "GB/s", rows(ln)),
                    ("cross_entropy 2048x32000", "GB/s", cross_entropy),
                    ("embedding 50000x1024, 8192 ids", "GB/s", embedding(False)),
                    ("embedding backward, same", "GB/s", embedding(True)),
                    ("cat 2x 2^23 f32", "GB/s", cat),
                    ("index_select 2^24 f32", "GB/s", index_select),
                    ("sort 2^24 f32", "GB/s", sort)]


def matmul_cases(quick):
    sizes = (256, 512) if quick else (1024, 2048, 4096, 8192)
    cases = []
    for dtype in (torch.float16, torch.bfloat16, torch.float32):
        for n in sizes:
            def setup(device, n=n, dtype=dtype):
                a, b = randn(n, n, device=device, dtype=dtype), randn(n, n, device=device, dtype=dtype)
                return (lambda: a @ b), 2 * n ** 3 / 1e3  # TFLOP counted in units of 1e12 below
            cases.append((f"gemm {n}^3 {str(dtype)[6:]}", "TFLOP/s", setup))

    # float32 under set_float32_matmul_precision("high") / ("medium"): cuda
    # takes TF32 for both, vulkan bfloat16 products where it has them
    # (csrc/aten/ops/matmul/gemm.cpp, bf16_route).
    for mode in ("high", "medium"):
        for n in sizes[-2:]:
            def setup(device, n=n, mode=mode):
                a, b = randn(n, n, device=device), randn(n, n, device=device)

                def product():
                    torch.set_float32_matmul_precision(mode)
                    try:
                        return a @ b
                    finally:
                        torch.set_float32_matmul_precision("highest")
                return product, 2 * n ** 3 / 1e3
            cases.append((f"gemm {n}^3 float32 {mode}", "TFLOP/s", setup))

    # The MNIST benchmark's Linear(784, h) at batch 128 in float16: forward
    # x @ W^T, then the weight gradient g^T @ x and the input gradient g @ W.
    for h in ((4096,) if quick else (4096, 65536, 393216)):
        for label, product in (("x@W^T", lambda x, w, g: x @ w.t()), ("g^T@x", lambda x, w, g: g.t() @ x),
                               ("g@W", lambda x, w, g: g @ w)):
            def setup(device, h=h, product=product):
                x = randn(128, 784, device=device, dtype=torch.float16)
                w = randn(h, 784, device=device, dtype=torch.float16)
                g = randn(128, h, device=device, dtype=torch.float16)
                return (lambda: product(x, w, g)), 2 * 128 * 784 * h / 1e3
            cases.append((f"mnist h={h} {label} f16", "TFLOP/s", setup))
        # The second layer, Linear(h, 10): forward a @ W2^T (N = 10), the
        # weight gradient g2^T @ a (M = 10) and the input gradient g2 @ W2
        # (K = 10); each reads or writes one [128, h] activation.
        for label, product in (("a@W2^T", lambda a, w, g: a @ w.t()), ("g2^T@a", lambda a, w, g: g.t() @ a),
                               ("g2@W2", lambda a, w, g: g @ w)):
            def setup(device, h=h, product=product):
                a = randn(128, h, device=device, dtype=torch.float16)
                w = randn(10, h, device=device, dtype=torch.float16)
                g = randn(128, 10, device=device, dtype=torch.float16)
                return (lambda: product(a, w, g)), 2 * 128 * 10 * h / 1e3
            cases.append((f"mnist h={h} {label} f16", "TFLOP/s", setup))

    def attention(dtype):
        def setup(device):
            q, k = randn(32, 1024, 64, device=device, dtype=dtype), randn(32, 64, 1024, device=device, dtype=dtype)
            return (lambda: torch.bmm(q, k)), 2 * 32 * 1024 * 64 * 1024 / 1e3
        return setup

    return cases + [(f"bmm 32x1024x64x1024 {str(dtype)[6:]}", "TFLOP/s", attention(dtype))
                    for dtype in (torch.float16, torch.float32)]


def conv_cases(quick):
    """ResNet-50's 3x3 convolution of its first stage and its max pooling, in
    float16: forward, and forward + backward (three products' worth of work)."""
    n, c, hw = (2, 8, 8) if quick else (32, 64, 56)
    cases = []
    for backward in (False, True):
        def setup(device, backward=backward):
            x = randn(n, c, hw, hw, device=device, dtype=torch.float16).requires_grad_(backward)
            w = randn(c, c, 3, 3, device=device, dtype=torch.float16).requires_grad_(backward)

            def step():
                out = torch.nn.functional.conv2d(x, w, padding=1)
                if backward:
                    out.backward(out)
                return out
            return step, 2 * n * c * c * 9 * hw * hw * (3 if backward else 1) / 1e3
        label = "forward + backward" if backward else "forward"
        cases.append((f"conv2d 3x3 {n}x{c}x{hw}x{hw} f16 {label}", "TFLOP/s", setup))

    def pool(device):
        x = randn(n, c, 2 * hw, 2 * hw, device=device, dtype=torch.float16)
        # Reads the input, writes a quarter as many values and int64 indices
        # (both devices compute the indices also when they are not asked for).
        return (lambda: torch.nn.functional.max_pool2d(x, 3, 2, 1)), x.numel() * (2 + (2 + 8) / 4)
    return cases + [(f"max_pool2d 3x3/2 {n}x{c}x{2 * hw}x{2 * hw} f16", "GB/s", pool)]


def linalg_cases(quick):
    """The factorizations on the batches of small matrices models use (one
    workgroup per matrix here; cuSOLVER/MAGMA on cuda), and torch.special's
    iterative functions, in float32: microseconds per call."""
    batch, n = (8, 8) if quick else (4096, 16)

    def matrices(device, rows=n, cols=n):
        torch.manual_seed(0)
        a = torch.randn(batch, rows, cols).to(device)
        return a @ a.mT + rows * torch.eye(rows, device=device) if rows == cols else a

    def solve(device):
        a, b = matrices(device), randn(batch, n, 1, device=device)
        return (lambda: torch.linalg.solve(a, b)), 1

    def cholesky(device):
        a = matrices(device)
        return (lambda: torch.linalg.cholesky(a)), 1

    def eigh(device):
        a = matrices(device)
        return (lambda: torch.linalg.eigh(a)), 1

    def svd(device):
        a = matrices(device, 2 * n, n)
        return (lambda: torch.linalg.svd(a, full_matrices=False)), 1

    def lstsq(device):
        a, b = matrices(device, 2 * n, n), randn(batch, 2 * n, 1, device=device)
        return (lambda: torch.linalg.lstsq(a, b)), 1

    elements = (1 << 12) if quick else (1 << 24)

    def special(fn):
        def setup(device):
            x = torch.rand(elements).to(device) * 30
            return (lambda: fn(x)), 1
        return setup

    shape = f"{batch}x{n}x{n}"
    return [(f"solve {shape}", "us/op", solve), (f"cholesky {shape}", "us/op", cholesky),
            (f"eigh {shape}", "us/op", eigh), (f"svd {batch}x{2 * n}x{n}", "us/op", svd),
            (f"lstsq {batch}x{2 * n}x{n}", "us/op", lstsq),
            (f"bessel_j0 {elements}", "us/op", special(torch.special.bessel_j0)),
            (f"modified_bessel_k0 {elements}", "us/op", special(torch.special.modified_bessel_k0)),
            (f"gammainc {elements}", "us/op", special(lambda x: torch.special.gammainc(x, x)))]


SECTIONS = {"elementwise": elementwise_cases, "reduce": reduce_cases, "matmul": matmul_cases, "conv": conv_cases,
            "linalg": linalg_cases}


def measure(cases, device, quick):
    """{case name: (figure, figure by events)} on `device`, or the first line
    of the error a case raised (an op that is not native, in strict mode)."""
    results = {}
    for name, unit, setup in cases:
        reps, inner = (3, 2) if quick else (7, 10)
        if unit == "TFLOP/s":
            reps, inner = (3, 1) if quick else (5, 3)
        try:
            fn, work = setup(device)
            # Products in blocks of about 2 ms (timing.timeit), so that the
            # small ones are not timed mostly by the synchronization after them.
            block_s = 2e-3 if unit == "TFLOP/s" and not quick else 0.0
            seconds, device_seconds = timeit(fn, device, reps, 1 if unit == "us/op" else inner, block_s)
        except RuntimeError as error:
            results[name] = str(error).splitlines()[0][:90]
            continue
        del fn
        results[name] = [{"GB/s": work / t / 1e9, "TFLOP/s": work / t / 1e9, "us/op": t / work * 1e6}[unit]
                         for t in (seconds, device_seconds)]
    return results


def selected(args, size):
    """[(section, cases)] that --only and --match select."""
    sections = []
    for section in args.only.split(","):
        cases = SECTIONS[section](args.quick) if section in ("matmul", "conv", "linalg") else SECTIONS[section](size)
        if args.match:
            cases = [c for c in cases if any(m in c[0] for m in args.match.split(","))]
        sections.append((section, cases))
    return sections


def cuda_figures(argv):
    """The cuda child's results per section, and its device's name."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([sys.executable, os.path.abspath(__file__), *argv, "--worker", "cuda", "--json", out.name],
                       check=True)
        with open(out.name) as f:
            found = json.load(f)
    return found["sections"], found["name"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="small sizes, for a CPU driver")
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--match", help="comma-separated substrings: run only cases whose name has one")
    parser.add_argument("--json")
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # a child measuring one device
    args = parser.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False  # fp32 compared as fp32
    size = (4 if args.quick else 256) * MiB
    sections = selected(args, size)
    if args.worker:
        found = {section: measure(cases, args.worker, args.quick) for section, cases in sections}
        with open(args.json, "w") as f:
            json.dump({"sections": found, "name": torch.cuda.get_device_name()}, f)
        return

    cuda, cuda_name = ({}, None)
    if torch.cuda.is_available():
        argv = ["--only", args.only] + (["--match", args.match] if args.match else []) + \
            (["--quick"] if args.quick else [])
        cuda, cuda_name = cuda_figures(argv)
    import torchvulkan  # noqa: F401  (registers the device; after the cuda child, see the docstring)

    devices = ["vulkan"] + (["cuda"] if cuda_name else [])
    print(f"vulkan: {torch.vulkan.get_device_name()}" + (f" | cuda: {cuda_name}" if cuda_name else ""))
    rows = []
    for section, cases in sections:
        print(f"\n{section}\n{'case':34s}{'unit':>9s}" + "".join(f"{d:>12s}" for d in devices) +
              ("     vs cuda" if len(devices) > 1 else "") + "".join(f"{d + ' by events':>18s}" for d in devices))
        for name, unit, setup in cases:
            found = {"vulkan": measure([(name, unit, setup)], "vulkan", args.quick)[name]}
            if cuda_name:
                found["cuda"] = cuda[section][name]
            failed = [f"{d}: {v}" for d, v in found.items() if isinstance(v, str)]
            if failed:
                print(f"{name:34s}  not native: {'; '.join(failed)}")
                continue
            figures = {d: v[0] for d, v in found.items()} | {f"{d} by events": v[1] for d, v in found.items()}
            ratio = None
            if cuda_name:
                ratio = figures["cuda"] / figures["vulkan"] if unit == "us/op" else figures["vulkan"] / figures["cuda"]
            rows.append({"section": section, "case": name, "unit": unit, **figures, "ratio": ratio})
            print(f"{name:34s}{unit:>9s}" + "".join(f"{figures[d]:12.4g}" for d in devices) +
                  (f"{ratio:12.2f}" if ratio else "") +
                  "".join(f"{figures[d + ' by events']:18.4g}" for d in devices), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
