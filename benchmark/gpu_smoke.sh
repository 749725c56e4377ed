#!/usr/bin/env bash
# One GPU-machine run (see ../shared/ARCHITECTURE.md): build against the
# machine's torch, print the device's properties, then run the given
# benchmark scripts. Usage on the device tool:
#   source .gpu/enter.sh; bash benchmark/gpu_smoke.sh benchmark/ops.py
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site
python3 -m pip install -q --no-build-isolation --no-deps -e . 2>&1 | tail -20
python3 - <<'PY'
import torch, torchvulkan
p = torch.vulkan.get_device_properties(0)
print(p)
print("coopmat shapes:", p.cooperative_matrix_shapes)
print("compiler features:", torchvulkan._C.compiler_features())
PY
for script in "$@"; do python3 "$script"; done
