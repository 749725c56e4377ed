"""Matrix-product tile configurations against each other and cuBLAS.

Each configuration runs in its own process with TORCHVULKAN_GEMM_TILE set
(csrc/aten/ops/matmul/gemm.cpp lists them; a configuration applies to the
products of its tier: t64/t128/t128w/t128wv/t128x64 to the portable tier,
s128/s256, v128/v256 and VK_NV_cooperative_matrix2's c128/c256 to float16
and bfloat16 on tensor cores, n16, dot, rows, rows_k, small_k (and rows16,
the 16-row forms of rows and rows_k for every product they take, and
small_k8, small_k in blocks of 8 rows) to the
tile-less kernels' products
(gemm.cpp's thin_kernel; forcing a tile keeps them out, forcing one of
these leaves the others' products to the tiles); "default" sets nothing, so
gemm.cpp picks), cuda in another process without torchvulkan. Each case
warms the GPU up for two seconds (timing.warm_up: an idle H200 runs at 345
MHz), then reports TFLOP/s by GPU timing events, median of 5 runs of at least 5
calls and about 2 ms each, repeated until two agree (timing.timeit).
Each configuration's kernels (those its cases dispatched) are listed with
the driver's pipeline statistics: registers, local memory (spills) and
shared memory per invocation.

    python benchmark/gemm_tiles.py [--tiles s128,s256,v128,v256] [--dtype float16] [--quick]
                                   [--match "bmm,g^T@x"] [--json out.json]

--match keeps the cases whose names contain one of its comma-separated
parts.
"""

import argparse
import json
import os
import subprocess
import sys

# name, (M, K, N), A stored transposed, B stored transposed, batches
CASES = [
    ("1024^3", (1024, 1024, 1024), False, False, 1),
    ("2048^3", (2048, 2048, 2048), False, False, 1),
    ("4096^3", (4096, 4096, 4096), False, False, 1),
    ("8192^3", (8192, 8192, 8192), False, False, 1),
    ("8192^3 B^T", (8192, 8192, 8192), False, True, 1),
    ("mnist h=65536 x@W^T", (128, 784, 65536), False, True, 1),
    ("mnist h=65536 g^T@x", (65536, 128, 784), True, False, 1),
    ("mnist h=65536 g@W", (128, 65536, 784), False, False, 1),
    ("mnist h=393216 x@W^T", (128, 784, 393216), False, True, 1),
    ("mnist h=393216 g^T@x", (393216, 128, 784), True, False, 1),
    # The same two products with the large operand stored the other way
    # (W1 as [784, h], g^T as [h, 128]): whether the layout's access pattern
    # (64 bytes of each of W1's rows a step of K) is what costs x @ W^T.
    ("layout h=393216 x@W^T stored", (128, 784, 393216), False, False, 1),
    ("layout h=393216 g^T@x stored", (393216, 128, 784), False, False, 1),
    # The same products with g's rows 64 elements further apart (g stored
    # in a [128, h + 64] tensor): whether g's row pitch of 128 KB, a power of
    # two, costs g @ W and g^T @ x (the sixth field: A's stored rows padded).
    ("pitch h=65536 g^T@x", (65536, 128, 784), True, False, 1, 64),
    ("pitch h=65536 g@W", (128, 65536, 784), False, False, 1, 64),
    # The second layer's products (h = 393216, 10 classes): M = 10, K = 10
    # and N = 10 (split-K), memory bound (docs/measurements.md, sixteenth
    # session).
    ("mnist h=131072 g2^T@a", (10, 128, 131072), True, False, 1),
    ("mnist h=393216 g2^T@a", (10, 128, 393216), True, False, 1),
    ("mnist h=65536 g2^T@a", (10, 128, 65536), True, False, 1),
    ("mnist h=65536 g2@W2", (128, 10, 65536), False, False, 1),
    ("mnist h=393216 g2@W2", (128, 10, 393216), False, False, 1),
    ("mnist h=393216 a@W2^T", (128, 393216, 10), False, True, 1),
    # A linear layer on a few inputs (decoding): out^T = W x^T, gemm_dot's
    # transposed form.
    ("linear 4x4096->4096", (4, 4096, 4096), False, True, 1),
    ("linear 16x4096->14336", (16, 4096, 14336), False, True, 1),
    ("bmm 32x1024x64x1024", (1024, 64, 1024), False, False, 32),
    # K = 32-1024 at a fixed output: a tile's fixed cost against its cost per
    # step of K (docs/measurements.md, seventh session).
    ("bmm 32x1024x32x1024", (1024, 32, 1024), False, False, 32),
    ("bmm 32x1024x256x1024", (1024, 256, 1024), False, False, 32),
    ("bmm 32x1024x1024x1024", (1024, 1024, 1024), False, False, 32),
]


# --quick: small shapes, for a CPU driver.
QUICK = [("256^3", (256, 256, 256), False, False, 1), ("256^3 B^T", (256, 256, 256), False, True, 1),
         ("bmm 4x256x64x256", (256, 64, 256), True, False, 4)]


def operands(torch, case, dtype, device):
    _, (m, k, n), ta, tb, batch = case[:5]
    pad = case[5] if len(case) > 5 else 0
    lead = (batch,) if batch > 1 else ()
    # Made on the host, as benchmark/ops.py does (with operands from the
    # device's randn, this script read g^T @ x at h = 65536 4x below ops.py's
    # figure for the same kernel; unexplained, docs/measurements.md).
    rows, cols = (k, m) if ta else (m, k)
    a = torch.randn(*lead, rows, cols + pad, dtype=dtype).to(device)[..., :cols]
    b = torch.randn(*lead, *((n, k) if tb else (k, n)), dtype=dtype).to(device)
    return (a.transpose(-1, -2) if ta else a), (b.transpose(-1, -2) if tb else b)


def measure(device, dtype_name, cases):
    """({case: TFLOP/s}, the names of the vulkan kernels the cases dispatched)."""
    import torch

    from timing import timeit
    if device == "vulkan":
        from kernel_times import kernel_times  # imports torchvulkan
    torch.backends.cuda.matmul.allow_tf32 = False
    dtype = getattr(torch, dtype_name)
    out, kernels = {}, set()
    for case in cases:
        name, (m, k, n), _, _, batch = case[:5]
        a, b = operands(torch, case, dtype, device)
        _, seconds = timeit(lambda: torch.matmul(a, b), device, reps=5, inner=5, block_s=2e-3)
        out[name] = 2 * m * n * k * batch / seconds / 1e12
        if device == "vulkan":
            kernels.update(kernel_times(lambda: torch.matmul(a, b), 1))
        del a, b
    return out, sorted(kernels)


def kernel_statistics(names):
    """{kernel: "registers R, local L B, shared S B"} from the driver's pipeline
    statistics (NVIDIA reports these; lavapipe nothing: "no statistics").
    Local memory is what spilled: its value carries 2^36 in its high bits
    (docs/measurements.md)."""
    import torchvulkan
    found = {}
    for name in names:
        stats = {stat["name"]: int(stat["value"]) for stat in torchvulkan._C.pipeline_statistics(name, 0)}
        if "Register Count" not in stats:
            found[name] = "no statistics"
            continue
        local = stats.get("Local Memory Size", 0) & ((1 << 36) - 1)
        found[name] = (f"registers {stats['Register Count']}, local {local} B, "
                       f"shared {stats.get('Shared Memory Size', 0)} B")
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tiles", default="s128,s256,v128,v256")
    parser.add_argument("--dtype", default="float16")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--match", help="comma-separated parts of case names to keep")
    parser.add_argument("--json")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    cases = QUICK if args.quick else CASES
    if args.match:
        cases = [case for case in cases if any(part in case[0] for part in args.match.split(","))]
    if args.child:
        figures, kernels = measure("cuda" if args.child == "cuda" else "vulkan", args.dtype, cases)
        if args.child != "cuda":
            figures["kernels"] = kernel_statistics(kernels)
        print("RESULT " + json.dumps(figures), flush=True)
        return

    runs = (["cuda"] if subprocess.run([sys.executable, "-c", "import torch; assert torch.cuda.is_available()"],
                                       capture_output=True).returncode == 0 else []) + args.tiles.split(",")
    results = {}
    for run in runs:
        env = dict(os.environ)
        if run not in ("cuda", "default"):
            env["TORCHVULKAN_GEMM_TILE"] = run
        command = [sys.executable, __file__, "--child", run, "--dtype", args.dtype]
        command += (["--quick"] if args.quick else []) + (["--match", args.match] if args.match else [])
        proc = subprocess.run(command, env=env, capture_output=True, text=True)
        lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
        results[run] = json.loads(lines[0][7:]) if lines else {"error": proc.stderr[-400:]}
        # Each configuration's figures as soon as it ends, so that a run cut
        # short by a time limit still reports the ones that finished.
        if lines:
            print(f"{run}: " + ", ".join(f"{name} {results[run][name]:.3g}" for name, *_ in cases
                                         if isinstance(results[run].get(name), float)), flush=True)
        else:
            print(f"{run}: failed\n{proc.stderr[-400:]}", flush=True)
    print(f"{args.dtype} TFLOP/s\n{'case':24s}" + "".join(f"{r:>9s}" for r in runs))
    for name, *_ in cases:
        cells = [results[r].get(name) for r in runs]
        print(f"{name:24s}" + "".join(f"{c:9.3g}" if isinstance(c, float) else f"{'-':>9s}" for c in cells))
    for run in runs:
        for kernel, line in results[run].get("kernels", {}).items():
            print(f"{run}: {kernel}: {line}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
