"""Vulkan generators and random ops (which run through the CPU fallback)."""

import pytest
import torch

pytestmark = pytest.mark.filterwarnings("ignore:torchvulkan.*no native Vulkan kernel")


def test_generator_object():
    g = torch.Generator(device="vulkan")
    assert g.device.type == "vulkan"
    g.manual_seed(42)
    assert g.initial_seed() == 42
    state = g.get_state()
    assert state.dtype == torch.uint8 and state.numel() == 16


def test_random_with_generator_reproducible():
    g = torch.Generator(device="vulkan")
    g.manual_seed(123)
    a = torch.randn(20, device="vulkan", generator=g)
    assert a.device.type == "vulkan"
    b = torch.randn(20, device="vulkan", generator=g)
    g.manual_seed(123)
    a2 = torch.randn(20, device="vulkan", generator=g)
    b2 = torch.randn(20, device="vulkan", generator=g)
    assert torch.equal(a.cpu(), a2.cpu())
    assert torch.equal(b.cpu(), b2.cpu())
    assert not torch.equal(a.cpu(), b.cpu())


def test_generator_state_round_trip():
    g = torch.Generator(device="vulkan").manual_seed(9)
    torch.rand(5, device="vulkan", generator=g)
    state = g.get_state()
    x = torch.rand(5, device="vulkan", generator=g).cpu()
    g.set_state(state)
    assert torch.equal(torch.rand(5, device="vulkan", generator=g).cpu(), x)


def test_set_state_rejects_bad_state():
    g = torch.Generator(device="vulkan")
    with pytest.raises(RuntimeError):
        g.set_state(torch.zeros(3, dtype=torch.uint8))


def test_separate_generators_are_independent():
    g1 = torch.Generator(device="vulkan").manual_seed(1)
    g2 = torch.Generator(device="vulkan").manual_seed(1)
    a = torch.rand(8, device="vulkan", generator=g1).cpu()
    torch.rand(8, device="vulkan")  # the default generator does not disturb g2
    b = torch.rand(8, device="vulkan", generator=g2).cpu()
    assert torch.equal(a, b)


def test_different_seeds_differ():
    a = torch.randn(16, device="vulkan", generator=torch.Generator(device="vulkan").manual_seed(1)).cpu()
    b = torch.randn(16, device="vulkan", generator=torch.Generator(device="vulkan").manual_seed(2)).cpu()
    assert not torch.equal(a, b)


@pytest.mark.parametrize(
    "op",
    [
        lambda t, g: t.uniform_(-1, 1, generator=g),
        lambda t, g: t.normal_(2.0, 0.5, generator=g),
        lambda t, g: t.bernoulli_(0.3, generator=g),
        lambda t, g: t.random_(0, 10, generator=g),
        lambda t, g: t.exponential_(generator=g),
    ],
    ids=["uniform_", "normal_", "bernoulli_", "random_", "exponential_"],
)
def test_in_place_random_ops_reproducible(op):
    results = []
    for _ in range(2):
        g = torch.Generator(device="vulkan").manual_seed(77)
        t = torch.zeros(4, 8, device="vulkan")
        op(t[:, ::2], g)  # on a non-contiguous view
        results.append(t.cpu())
    assert torch.equal(results[0], results[1])
    assert torch.equal(results[0][:, 1::2], torch.zeros(4, 4))


def test_uniform_range():
    g = torch.Generator(device="vulkan").manual_seed(5)
    t = torch.empty(200, device="vulkan").uniform_(2.0, 3.0, generator=g).cpu()
    assert bool(((t >= 2.0) & (t < 3.0)).all())
    assert t.unique().numel() > 100


def test_default_generator_via_torch_vulkan_manual_seed():
    torch.vulkan.manual_seed(2024)
    a = torch.rand(10, device="vulkan").cpu()
    torch.vulkan.manual_seed(2024)
    b = torch.rand(10, device="vulkan").cpu()
    assert torch.equal(a, b)


def test_torch_manual_seed_seeds_vulkan():
    torch.manual_seed(31)
    a = torch.randn(10, device="vulkan").cpu()
    torch.manual_seed(31)
    b = torch.randn(10, device="vulkan").cpu()
    assert torch.equal(a, b)
    assert torch.vulkan.initial_seed() == 31


def test_randperm_and_multinomial():
    g = torch.Generator(device="vulkan").manual_seed(3)
    p = torch.randperm(10, device="vulkan", generator=g).cpu()
    assert torch.equal(p.sort().values, torch.arange(10))
    g.manual_seed(3)
    assert torch.equal(torch.randperm(10, device="vulkan", generator=g).cpu(), p)
