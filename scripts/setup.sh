#!/usr/bin/env bash
# Sets up a fresh Debian/Ubuntu machine for torchvulkan, idempotently:
#   - system packages: Vulkan loader and headers, volk, Mesa's Vulkan drivers
#     (lavapipe runs on the CPU), the Khronos validation layer, glslc, CMake;
#   - a virtual environment .venv with torch 2.13.0 and this package built
#     against it (no isolated build, so pip never fetches another torch).
# Environment: PYTHON (interpreter for the venv, default python3),
#              TORCH_SPEC (default torch==2.13.0).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libvulkan1 libvulkan-dev libvulkan-volk-dev mesa-vulkan-drivers vulkan-validationlayers
          vulkan-tools glslc cmake ninja-build g++ git)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

[ -x .venv/bin/python ] || "${PYTHON:-python3}" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q "${TORCH_SPEC:-torch==2.13.0}"
.venv/bin/python -m pip install -q scikit-build-core setuptools-scm pytest numpy expecttest hypothesis scikit-learn tqdm
.venv/bin/python -m pip install -q --no-build-isolation -e .
.venv/bin/python -c "import torchvulkan as tv; print('setup: torchvulkan', tv.__version__, '->',
  tv.get_device_name() if tv.is_available() else 'no Vulkan device')"
