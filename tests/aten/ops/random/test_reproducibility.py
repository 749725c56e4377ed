"""Seeds reproduce sequences: torch.manual_seed, torch.vulkan.manual_seed,
torch.Generator(device="vulkan") and the saved RNG state; consecutive draws
and different seeds differ. Every sampling op, natively (strict mode)."""

import pytest
import torch

from tests.helpers import VK

OPS = {
    "uniform_": lambda g: torch.empty(64, device=VK).uniform_(-1, 1, generator=g),
    "normal_": lambda g: torch.empty(64, device=VK, dtype=torch.float64).normal_(generator=g),
    "normal.Tensor_Tensor": lambda g: torch.normal(torch.zeros(64, device=VK), torch.ones(64, device=VK), generator=g),
    "log_normal_": lambda g: torch.empty(64, device=VK, dtype=torch.float16).log_normal_(generator=g),
    "exponential_": lambda g: torch.empty(64, device=VK, dtype=torch.bfloat16).exponential_(generator=g),
    "cauchy_": lambda g: torch.empty(64, device=VK).cauchy_(generator=g),
    "geometric_": lambda g: torch.empty(64, device=VK, dtype=torch.int32).geometric_(0.2, generator=g),
    "bernoulli_.float": lambda g: torch.empty(64, device=VK).bernoulli_(0.5, generator=g),
    "bernoulli_.Tensor": lambda g: torch.empty(64, device=VK).bernoulli_(torch.full((64,), 0.5, device=VK), generator=g),
    "bernoulli": lambda g: torch.bernoulli(torch.full((64,), 0.5, device=VK), generator=g),
    "random_": lambda g: torch.empty(64, device=VK, dtype=torch.int64).random_(generator=g),
    "random_.from": lambda g: torch.empty(64, device=VK, dtype=torch.int64).random_(-(2**63), None, generator=g),
    "random_.to": lambda g: torch.empty(64, device=VK, dtype=torch.uint8).random_(100, generator=g),
    "rand": lambda g: torch.rand(64, device=VK, generator=g),
    "randn": lambda g: torch.randn(64, device=VK, generator=g),
    "randint": lambda g: torch.randint(0, 1000, (64,), device=VK, generator=g),
    "randperm": lambda g: torch.randperm(64, device=VK, generator=g),
    "multinomial": lambda g: torch.multinomial(torch.ones(64, device=VK), 64, True, generator=g),
    "multinomial, no replacement": lambda g: torch.multinomial(torch.ones(64, device=VK), 32, generator=g),
}
# Ops without a generator argument draw from the default generator.
DEFAULT_ONLY = {
    "rand_like": lambda: torch.rand_like(torch.empty(64, device=VK)),
    "randn_like": lambda: torch.randn_like(torch.empty(64, device=VK, dtype=torch.float16)),
    "dropout": lambda: torch.nn.functional.dropout(torch.ones(64, device=VK), 0.5),
}


@pytest.mark.parametrize("name", OPS)
def test_generator_reproduces_and_advances(name, no_fallback):
    op = OPS[name]
    g = torch.Generator(device=VK).manual_seed(2024)
    first, second = op(g).cpu(), op(g).cpu()
    assert not torch.equal(first, second), "consecutive draws are equal"
    g.manual_seed(2024)
    assert torch.equal(op(g).cpu(), first)
    assert torch.equal(op(g).cpu(), second)
    assert not torch.equal(op(torch.Generator(device=VK).manual_seed(2025)).cpu(), first)


@pytest.mark.parametrize("name", list(OPS) + list(DEFAULT_ONLY))
@pytest.mark.parametrize("seed_fn", [torch.manual_seed, torch.vulkan.manual_seed], ids=["torch", "torch.vulkan"])
def test_manual_seed_reproduces(name, seed_fn, no_fallback):
    op = (lambda: OPS[name](None)) if name in OPS else DEFAULT_ONLY[name]
    seed_fn(77)
    first, second = op().cpu(), op().cpu()
    assert not torch.equal(first, second)
    seed_fn(77)
    assert torch.equal(op().cpu(), first)
    assert torch.equal(op().cpu(), second)


def test_rng_state_round_trip(no_fallback):
    torch.vulkan.manual_seed(5)
    torch.randn(10, device=VK)
    state = torch.vulkan.get_rng_state()
    expected = [torch.randn(10, device=VK).cpu(), torch.rand(7, device=VK).cpu()]
    torch.randn(100, device=VK)  # moves on
    torch.vulkan.set_rng_state(state)
    assert torch.equal(torch.randn(10, device=VK).cpu(), expected[0])
    assert torch.equal(torch.rand(7, device=VK).cpu(), expected[1])


def test_generator_state_round_trip(no_fallback):
    g = torch.Generator(device=VK).manual_seed(8)
    torch.rand(3, device=VK, generator=g)
    state = g.get_state()
    x = torch.empty(33, device=VK).normal_(generator=g).cpu()
    g.set_state(state)
    assert torch.equal(torch.empty(33, device=VK).normal_(generator=g).cpu(), x)


def test_generators_are_independent(no_fallback):
    g = torch.Generator(device=VK).manual_seed(1)
    a = torch.rand(8, device=VK, generator=g).cpu()
    torch.manual_seed(1)
    torch.rand(8, device=VK)  # the default generator does not disturb g
    b = torch.rand(8, device=VK, generator=g).cpu()
    g.manual_seed(1)
    assert torch.equal(torch.rand(8, device=VK, generator=g).cpu(), a)
    assert torch.equal(torch.rand(8, device=VK, generator=g).cpu(), b)
    # and g does not disturb the default one
    torch.manual_seed(3)
    c = torch.rand(8, device=VK).cpu()
    torch.manual_seed(3)
    torch.rand(8, device=VK, generator=g)
    assert torch.equal(torch.rand(8, device=VK).cpu(), c)
