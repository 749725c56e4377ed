"""Lists the ATen ops that would run through the CPU fallback on the vulkan
device: those with a CPU kernel but neither a PrivateUse1 kernel nor a
composite one (which decomposes into other ops). Quantized, sparse, nested,
MKL/oneDNN and test-only ops are left out unless --all is given.

    python scripts/list_fallbacks.py [--all]

Whether an op really falls back still depends on the call (an out= form
may be reached only by explicit out=); check with TORCHVULKAN_STRICT=1.
"""

import sys

import torch

import torchvulkan  # noqa: F401  (registers the PrivateUse1 kernels)

SKIP = ("quantize", "mkldnn", "mkl::", "onednn::", "quantization::", "sparse", "fbgemm", "_nested",
        "q_", "_cslt", "int_repr", "_weight_int", "fake_quant", "coalesce", "_fused_moving",
        "_convert_weight", "_dyn_quant", "_pack", "_mps", "_cudnn", "_use_cudnn", "_test_", "_foobar",
        "c10d::", "_jagged", "_padded_dense", "csr", "coo")


def registered(key):
    return set(torch._C._dispatch_get_registrations_for_dispatch_key(key))


def main():
    native = registered("PrivateUse1")
    composite = (registered("CompositeImplicitAutograd") | registered("CompositeExplicitAutograd")
                 | registered("CompositeExplicitAutogradNonFunctional"))
    missing = sorted(op for op in registered("CPU") if op not in native and op not in composite)
    if "--all" not in sys.argv:
        missing = [op for op in missing if not any(s in op for s in SKIP)]
    print("\n".join(missing))
    print(f"{len(missing)} ops", file=sys.stderr)


if __name__ == "__main__":
    main()
