"""bernoulli_ (scalar and tensor p), bernoulli, random_ (all three forms) and
randint, native in strict mode: frequencies, and bounds for every dtype."""

import pytest
import torch

from tests.aten.ops.random.stats import N, assert_close, assert_fraction, assert_uncorrelated
from tests.helpers import ALL_DTYPES, FLOAT_DTYPES, VK

INT_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
DIGITS = {torch.float16: 11, torch.bfloat16: 8, torch.float32: 24, torch.float64: 53}


@pytest.fixture(autouse=True)
def _seeded():
    torch.manual_seed(99)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("p", [0.0, 0.3, 1.0])
def test_bernoulli_scalar(dtype, p, no_fallback):
    x = torch.empty(N, device=VK, dtype=dtype).bernoulli_(p).cpu()
    assert bool(((x == 0) | (x == 1)).all())
    assert_fraction(x == 1, p)
    if 0 < p < 1:
        assert_uncorrelated(x)


@pytest.mark.parametrize("dtype", [torch.bool, torch.int32, torch.float16, torch.float32])
@pytest.mark.parametrize("p_dtype", FLOAT_DTYPES)
def test_bernoulli_tensor_p(dtype, p_dtype, no_fallback):
    # Each row has its own probability, the ends included.
    probs = torch.tensor([0.0, 0.1, 0.5, 0.9, 1.0], dtype=p_dtype)
    rows = N // 5
    x = torch.empty(5, rows, device=VK, dtype=dtype).bernoulli_(probs.to(VK)[:, None]).cpu()
    for row, p in zip(x, probs.double().tolist()):
        assert_fraction(row == 1, p)


def test_bernoulli_tensor_p_on_the_cpu(no_fallback):
    x = torch.empty(N, device=VK).bernoulli_(torch.tensor(0.25)).cpu()
    assert_fraction(x == 1, 0.25)


def test_bernoulli_functional_forms(no_fallback):
    p = torch.linspace(0, 1, 5, device=VK).repeat_interleave(N // 5)
    for x in [torch.bernoulli(p), torch.bernoulli(p, out=torch.empty(0, device=VK))]:
        assert x.device.type == "vulkan" and x.dtype == p.dtype
        for part, q in zip(x.cpu().split(N // 5), [0.0, 0.25, 0.5, 0.75, 1.0]):
            assert_fraction(part == 1, q)
    x = torch.bernoulli(torch.empty(N, device=VK), 0.7).cpu()  # bernoulli.p
    assert_fraction(x == 1, 0.7)


def test_bernoulli_non_contiguous(no_fallback):
    base = torch.full((4, 2 * N // 4), 7.0, device=VK)
    base.t()[::2].bernoulli_(0.5)
    out = base.cpu()
    assert torch.equal(out[:, 1::2], torch.full((4, N // 4), 7.0))
    assert_fraction(out[:, ::2] == 1, 0.5)


def bounds(dtype):
    if dtype == torch.bool:
        return 0, 1
    if dtype.is_floating_point:
        return 0, 2 ** DIGITS[dtype]
    return 0, torch.iinfo(dtype).max


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_random_default_range(dtype, no_fallback):
    x = torch.empty(N, device=VK, dtype=dtype).random_().cpu()
    low, high = bounds(dtype)
    values = x.to(torch.float64) if dtype != torch.int64 else x
    assert values.min() >= low and values.max() <= high
    if dtype.is_floating_point:
        assert torch.equal(x, x.round())
    if high < N // 10:  # small ranges: every value drawn, both ends too
        assert values.min() == low and values.max() == high
        assert x.unique().numel() == high - low + 1
    else:  # the top and bottom tenths are reached
        assert values.max() > high * 0.9 and values.min() < high * 0.1
    assert_close(values.double().mean().item() / max(high, 1), 0.5, 0.3 / N**0.5, 1 / (high + 1))
    assert_uncorrelated(values.double())


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_random_from_to(dtype, no_fallback):
    low, high = {torch.bool: (0, 2), torch.uint8: (3, 19)}.get(dtype, (-7, 9))
    x = torch.empty(N, device=VK, dtype=dtype).random_(low, high).cpu().to(torch.int64)
    assert x.min() == low and x.max() == high - 1
    p = 1 / (high - low)
    for count in torch.bincount(x - low, minlength=high - low).tolist():
        assert_close(count / N, p, (p * (1 - p) / N) ** 0.5, what="share of one value")


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_random_from_to_whole_dtype(dtype, no_fallback):
    info = torch.iinfo(dtype)
    x = torch.empty(N, device=VK, dtype=dtype).random_(info.min, info.max).cpu()
    assert x.min() >= info.min and x.max() < info.max
    span = info.max - info.min
    assert int(x.max()) > info.max - span // 10 and int(x.min()) < info.min + span // 10


@pytest.mark.parametrize("dtype", INT_DTYPES + [torch.float32])
def test_random_from_without_to(dtype, no_fallback):
    # [from, max of the dtype] (2^24 for float32)
    x = torch.empty(N, device=VK, dtype=dtype).random_(5, None).cpu()
    top = 2**24 if dtype == torch.float32 else torch.iinfo(dtype).max
    assert x.min() >= 5 and x.max() <= top
    assert x.to(torch.float64).max() > top * 0.9


@pytest.mark.parametrize("dtype", [torch.int64, torch.float32, torch.float64, torch.bfloat16])
def test_random_full_64_bit_range(dtype, no_fallback):
    x = torch.empty(N, device=VK, dtype=dtype).random_(-(2**63), None).cpu().double()
    assert_fraction(x < 0, 0.5)
    assert x.abs().max() > 2**62


@pytest.mark.filterwarnings("ignore:.*out of bounds")  # float32 beyond 2^24, on purpose
@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.float32])
def test_random_range_beyond_32_bits(dtype, no_fallback):
    low, high = (-(2**31), 2**31) if dtype == torch.int32 else (-(2**40), 2**40)
    x = torch.empty(N, device=VK, dtype=dtype).random_(low, high).cpu().double()
    assert x.min() >= low and x.max() < high
    assert_fraction(x < 0, 0.5)
    assert x.abs().max() > 0.9 * high


def test_randint_and_randint_like(no_fallback):
    x = torch.randint(-3, 4, (N,), device=VK)
    assert x.device.type == "vulkan" and x.dtype == torch.int64
    x = x.cpu()
    assert x.min() == -3 and x.max() == 3
    y = torch.randint_like(torch.empty(N, device=VK, dtype=torch.int16), 10).cpu()
    assert y.dtype == torch.int16 and y.min() == 0 and y.max() == 9
