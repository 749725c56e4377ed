"""The vulkan generator object. What the sampling ops draw from it (seeds,
states, reproducibility) is tested with the ops, in tests/aten/ops/random."""

import pytest
import torch


def test_generator_object():
    g = torch.Generator(device="vulkan")
    assert g.device.type == "vulkan"
    g.manual_seed(42)
    assert g.initial_seed() == 42
    state = g.get_state()
    assert state.dtype == torch.uint8 and state.numel() == 16


def test_set_state_rejects_bad_state():
    g = torch.Generator(device="vulkan")
    with pytest.raises(RuntimeError):
        g.set_state(torch.zeros(3, dtype=torch.uint8))


def test_torch_manual_seed_seeds_vulkan():
    torch.manual_seed(31)
    assert torch.vulkan.initial_seed() == 31
