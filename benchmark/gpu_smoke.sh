#!/usr/bin/env bash
# One GPU-machine call (see ../shared/ARCHITECTURE.md): build against the
# machine's torch, print the device's properties, then run the given steps in
# order within the call's budget. Usage on the device tool, with carry
# [".gpu", ".whl"]:
#   source .gpu/enter.sh > /tmp/enter.log 2>&1; bash benchmark/gpu_smoke.sh 450 \
#       "TORCHVULKAN_STRICT=1 python3 -m pytest -q -n 14 tests/aten/ops/matmul/test_coopmat.py" \
#       "cd benchmark && python3 gemm_tiles.py --dtype float32 --tiles t64,t128"
# The first argument is the budget in seconds from the script's start: each
# step (a shell command, run from the repository's root) gets the time left
# less a 5 s margin and is skipped when under 30 s remain, so that the call
# returns, with its files, before the device tool's limit. Step N's output
# goes to $OUT/stepN.txt, the build's log's tail to $OUT/build.txt if it
# fails, and $OUT/steps.txt records each step's exit status, time and last
# line (the device tool returns about eight files: at most six steps).
# Refusals and machines taken back mid-call are common (docs/measurements.md,
# twenty-third session), so put the step that matters most first.
#
# Prepared on the development machine:
#   .gpu/  ../shared/gpu/prepare.sh, plus Debian 13's libvulkan-volk-dev
#          (the GPU image has no volk; apt-get download it with prepare.sh's
#          apt options into .gpu/);
#   .whl/  wheels of setuptools-scm, vcs-versioning and packaging>=26.2 for
#          Python 3.12 (the image has scikit-build-core but not these), and
#          expecttest (tests/opinfo.py needs it);
#   .gpu/sid/  optional, for the bfloat16 tensor-core kernels:
#          benchmark/gpu_newer_glslc.sh prepare.
# The cold build takes 100-150 s there.
set -uo pipefail
budget=$1
shift
start=$(date +%s)
left() { echo $((budget - ($(date +%s) - start))); }
if [ -d .gpu/sid ]; then source benchmark/gpu_newer_glslc.sh enter; fi
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site
if ! python3 -m pip install -q --no-build-isolation --no-deps -e . > /tmp/build.log 2>&1; then
  tail -n 80 /tmp/build.log > "$OUT/build.txt"
  exit 1
fi
echo "built in $(($(date +%s) - start)) s" | tee "$OUT/steps.txt"
python3 - <<'PY' | tee -a "$OUT/steps.txt"
import torch, torchvulkan
p = torch.vulkan.get_device_properties(0)
print(p)
print("coopmat shapes:", p.cooperative_matrix_shapes)
print("compiler features:", torchvulkan._C.compiler_features())
# One op and a synchronization: the fifteenth session's H100 raised "index
# out of range" at every synchronization (docs/measurements.md).
print("sum of arange(4):", torch.arange(4.0).to("vulkan").sum().item())
PY
n=0
for step in "$@"; do
  n=$((n + 1))
  if [ "$(left)" -lt 30 ]; then
    echo "step $n skipped (out of time): $step" >> "$OUT/steps.txt"
    continue
  fi
  began=$(date +%s)
  timeout "$(($(left) - 5))" bash -c "$step" > "$OUT/step$n.txt" 2>&1
  echo "step $n rc=$? in $(($(date +%s) - began)) s: $step: $(tail -n 1 "$OUT/step$n.txt")" >> "$OUT/steps.txt"
done
cat "$OUT/steps.txt"
