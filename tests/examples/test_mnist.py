"""examples/mnist.py: a short run on the bundled digits in strict mode (any
CPU fallback raises); the mean loss of the second epoch is below the first."""

import os
import re
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mnist.py"


def test_mnist_learns():
    env = dict(os.environ, TORCHVULKAN_STRICT="1")
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "--data", "digits", "--epochs", "2", "--limit", "512", "--batch", "64",
         "--hidden", "32", "--device", "vulkan"],
        capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    losses = [float(x) for x in re.findall(r"epoch \d+: mean loss ([0-9.]+)", result.stdout)]
    assert len(losses) == 2, result.stdout
    assert losses[1] < losses[0], result.stdout
    assert "CPU fallbacks: none" in result.stdout
