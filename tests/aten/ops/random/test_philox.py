"""The device's random bits are Philox4x32-10 keyed by (seed, offset) and
indexed by element, bit for bit: checked against the reference in philox.py,
which knows nothing of workgroups, so no value depends on them."""

import pytest
import torch

from tests.aten.ops.random.philox import philox4x32_10, words
from tests.helpers import VK

# Random123's known-answer vectors (tests/kat_vectors, "philox4x32 10"): counter, key, result.
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


@pytest.mark.no_device
@pytest.mark.parametrize("counter, key, expected", KAT)
def test_reference_matches_known_answers(counter, key, expected):
    assert philox4x32_10(counter, key) == expected


def generator(seed, offset):
    g = torch.Generator(device=VK)
    g.manual_seed(seed)
    state = torch.tensor([(seed >> (8 * k)) & 255 for k in range(8)] + [(offset >> (8 * k)) & 255 for k in range(8)],
                         dtype=torch.uint8)
    g.set_state(state)
    return g


def word(seed, offset, i, lanes=4):
    """The first word of element i's lane (32-bit draws: 4 lanes a block; 64-bit: 2)."""
    per = 4 // lanes
    return words(seed, offset, i // lanes)[per * (i % lanes)]


def word64(seed, offset, i):
    w = words(seed, offset, i // 2)
    return w[2 * (i % 2)] | (w[2 * (i % 2) + 1] << 32)


# Seeds and offsets whose high words matter too (the key's and counter's second halves).
CASES = [(0, 0), (2024, 7), (0x123456789ABCDEF0, 2**33 + 5)]


@pytest.mark.parametrize("seed, offset", CASES)
def test_uniform_float32_bits(seed, offset, no_fallback):
    n = 37  # not a multiple of 4: the vector path's ragged end too
    x = torch.empty(n, device=VK).uniform_(generator=generator(seed, offset)).cpu()
    expected = torch.tensor([(word(seed, offset, i) >> 8) / 2**24 for i in range(n)], dtype=torch.float32)
    assert torch.equal(x, expected)


@pytest.mark.parametrize("seed, offset", CASES)
def test_uniform_float64_takes_53_bits_of_two_words(seed, offset, no_fallback):
    n = 11
    x = torch.empty(n, device=VK, dtype=torch.float64).uniform_(generator=generator(seed, offset)).cpu()
    expected = torch.tensor([(word64(seed, offset, i) >> 11) / 2**53 for i in range(n)], dtype=torch.float64)
    assert torch.equal(x, expected)


@pytest.mark.parametrize("seed, offset", CASES)
def test_full_range_int64_bits(seed, offset, no_fallback):
    n = 9
    x = torch.empty(n, device=VK, dtype=torch.int64).random_(-(2**63), None, generator=generator(seed, offset)).cpu()
    expected = [w - 2**64 if w >= 2**63 else w for w in (word64(seed, offset, i) for i in range(n))]
    assert x.tolist() == expected


def test_bounded_int_is_base_plus_word_mod_range(no_fallback):
    seed, offset, n = 99, 3, 21
    x = torch.empty(n, device=VK, dtype=torch.int32).random_(-50, 1000, generator=generator(seed, offset)).cpu()
    assert x.tolist() == [-50 + word(seed, offset, i) % 1050 for i in range(n)]


def test_strided_output_takes_the_same_values_in_memory_order(no_fallback):
    # The strided path computes each element's block alone, the contiguous
    # path shares blocks: same values. Elements count in the output's memory
    # order (ATen's iterator order), so a transposed output holds the
    # contiguous sequence in memory.
    g = generator(5, 1)
    flat = torch.empty(6, 10, device=VK).uniform_(generator=g).cpu()
    g = generator(5, 1)
    transposed = torch.empty(10, 6, device=VK).t().uniform_(generator=g).cpu()
    assert torch.equal(transposed.t(), flat.reshape(10, 6))
    g = generator(5, 1)
    base = torch.zeros(6, 20, device=VK)
    base[:, ::2].uniform_(generator=g)
    assert torch.equal(base[:, ::2].cpu(), flat)
    assert torch.equal(base[:, 1::2].cpu(), torch.zeros(6, 10))


def test_each_launch_takes_one_offset(no_fallback):
    g = generator(11, 40)
    torch.empty(1000, device=VK).normal_(generator=g)
    assert g.get_offset() == 41
    torch.empty(3, device=VK).bernoulli_(0.5, generator=g)
    assert g.get_offset() == 42
