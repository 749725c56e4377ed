"""examples/llm.py: a few steps of a tiny GPT in strict mode (no CPU
fallback anywhere: attention, AdamW's foreach kernels, clip_grad_norm_,
sampling) and its loss goes down."""

import argparse
import importlib.util
from pathlib import Path

import pytest
import torch

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "llm.py"


def load():
    spec = importlib.util.spec_from_file_location("llm_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tiny(clip):
    return argparse.Namespace(steps=30, dim=32, layers=1, heads=2, block=16, batch=8, lr=1e-2, clip=clip,
                              log_every=10, seed=0, device="vulkan")


def test_tiny_gpt_learns(no_fallback):
    llm = load()
    args = tiny(clip=0.0)
    model, vocab, losses = llm.train(args, log=lambda _: None)
    first, last = sum(losses[:3]) / 3, sum(losses[-3:]) / 3
    assert last < 0.8 * first, losses
    prompt = torch.tensor([[vocab.index("A")]], device="vulkan")
    out = llm.sample(model, prompt, 5, 0.8, torch.Generator().manual_seed(0))
    assert out.shape == (1, 6) and out.device.type == "vulkan"
    assert 0 <= int(out.min()) and int(out.max()) < len(vocab)


# clip_grad_norm_'s total norm is linalg_vector_norm of the per-tensor norms
# (_foreach_norm, native here); linalg_vector_norm itself is another branch's.
@pytest.mark.xfail(not torch._C._dispatch_has_kernel_for_dispatch_key("aten::linalg_vector_norm", "PrivateUse1"),
                   reason="linalg_vector_norm has no vulkan kernel yet", strict=True)
def test_tiny_gpt_learns_with_clipping(no_fallback):
    _, _, losses = load().train(tiny(clip=1.0), log=lambda _: None)
    assert sum(losses[-3:]) < 0.8 * sum(losses[:3]), losses
