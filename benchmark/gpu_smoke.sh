#!/usr/bin/env bash
# One GPU-machine run (see ../shared/ARCHITECTURE.md): build against the
# machine's torch, print the device's properties, then run the given
# benchmark scripts, each argument one script with its options. Usage on the
# device tool:
#   source .gpu/enter.sh; bash benchmark/gpu_smoke.sh benchmark/ops.py \
#       "benchmark/gemm_tiles.py --dtype float32 --tiles t64,t128"
# with carry [".gpu", ".whl"]. Prepared on the development machine:
#   .gpu/  ../shared/gpu/prepare.sh, plus Debian 13's libvulkan-volk-dev
#          (the GPU image has no volk; apt-get download it with prepare.sh's
#          apt options into .gpu/);
#   .whl/  wheels of setuptools-scm, vcs-versioning and packaging>=26.2 for
#          Python 3.12 (the image has scikit-build-core but not these);
#   .gpu/sid/  optional, for the bfloat16 tensor-core kernels:
#          benchmark/gpu_newer_glslc.sh prepare.
# The build takes 70-90 s there.
set -uo pipefail
if [ -d .gpu/sid ]; then source benchmark/gpu_newer_glslc.sh enter; fi
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site
python3 -m pip install -q --no-build-isolation --no-deps -e . 2>&1 | tail -20
python3 - <<'PY'
import torch, torchvulkan
p = torch.vulkan.get_device_properties(0)
print(p)
print("coopmat shapes:", p.cooperative_matrix_shapes)
print("compiler features:", torchvulkan._C.compiler_features())
# One op and a synchronization: the fifteenth session's H100 raised "index
# out of range" at every synchronization (docs/measurements.md).
print("sum of arange(4):", torch.arange(4.0).to("vulkan").sum().item())
PY
# Word splitting is wanted: an argument is a script and its options.
# shellcheck disable=SC2086
for script in "$@"; do python3 $script; done
