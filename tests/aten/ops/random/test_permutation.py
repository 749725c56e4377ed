"""randperm and multinomial, native in strict mode: permutations, their
uniformity, and multinomial frequencies with and without replacement."""

import pytest
import torch

from tests.aten.ops.random.stats import assert_fraction
from tests.helpers import VK


@pytest.fixture(autouse=True)
def _seeded():
    torch.manual_seed(3)


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int16, torch.uint8, torch.float16,
                                   torch.bfloat16, torch.float32, torch.float64])
def test_randperm_is_a_permutation(dtype, no_fallback):
    n = 200
    p = torch.randperm(n, device=VK, dtype=dtype)
    assert p.device.type == "vulkan" and p.dtype == dtype and p.shape == (n,)
    assert torch.equal(p.cpu().double().sort().values, torch.arange(n, dtype=torch.float64))


def test_randperm_is_uniform(no_fallback):
    # Where element 0 lands, over many permutations: every place equally often.
    n, trials = 8, 1500
    places = torch.stack([torch.randperm(n, device=VK) for _ in range(trials)]).cpu().argmin(1)
    for k in range(n):
        assert_fraction(places == k, 1 / n, f"P(element 0 at {k})")


def test_randperm_edges_and_out(no_fallback):
    assert torch.randperm(0, device=VK).shape == (0,)
    assert torch.equal(torch.randperm(1, device=VK).cpu(), torch.tensor([0]))
    out = torch.empty(5, device=VK, dtype=torch.int32)
    assert torch.randperm(70, out=out) is out and out.shape == (70,)
    assert torch.equal(out.cpu().sort().values, torch.arange(70, dtype=torch.int32))


PROBS = [0.1, 0.0, 0.2, 0.7]


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.float64])
def test_multinomial_with_replacement(dtype, no_fallback):
    probs = torch.tensor([PROBS, PROBS[::-1]], dtype=dtype, device=VK) * 3  # unnormalised
    n = 20000
    x = torch.multinomial(probs, n, replacement=True)
    assert x.dtype == torch.int64 and x.shape == (2, n)
    x = x.cpu()
    for row, p in zip(x, [PROBS, PROBS[::-1]]):
        for k, q in enumerate(p):
            assert_fraction(row == k, q, f"P({k})")


def test_multinomial_without_replacement(no_fallback):
    probs = torch.tensor(PROBS, device=VK)
    draws = torch.stack([torch.multinomial(probs, 3) for _ in range(500)]).cpu()
    assert bool((draws != 1).all())  # probability 0: never drawn
    assert all(len(set(row.tolist())) == 3 for row in draws)  # distinct
    # The first draw follows the probabilities.
    first = draws[:, 0]
    for k, q in enumerate(PROBS):
        assert_fraction(first == k, q, f"P(first = {k})")


def test_multinomial_single_sample_and_1d(no_fallback):
    probs = torch.tensor(PROBS, device=VK, dtype=torch.float64)
    picks = torch.cat([torch.multinomial(probs, 1) for _ in range(1000)]).cpu()
    assert_fraction(picks == 3, 0.7)
    out = torch.empty(0, dtype=torch.int64, device=VK)
    assert torch.multinomial(probs, 50, True, out=out) is out and out.shape == (50,)
    assert not bool((out.cpu() == 1).any())
