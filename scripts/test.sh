#!/usr/bin/env bash
# Runs the test suite on the first Vulkan device (lavapipe on a CPU-only
# machine), then the runtime tests again under the Khronos validation layer,
# which must report nothing. Run scripts/setup.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -m pytest tests -q "$@"
TORCHVULKAN_VALIDATION=1 .venv/bin/python -m pytest tests/runtime -q "$@"
