"""uniform_, normal_ (and normal.*), log_normal_, exponential_, cauchy_,
geometric_ and the factories built on them (rand, randn, *_like), native in
strict mode, for every float dtype: range and moments of ~1e5 samples."""

import math

import pytest
import torch

from tests.aten.ops.random.stats import (N, RESOLUTION, assert_fraction, assert_mean, assert_std,
                                        assert_uncorrelated)
from tests.helpers import FLOAT_DTYPES, VK

INT_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]


@pytest.fixture(autouse=True)
def _seeded():
    torch.manual_seed(1234)


def sample(dtype, fill):
    x = torch.empty(N, device=VK, dtype=dtype)
    assert fill(x) is x
    return x.cpu().double()


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("low, high", [(0.0, 1.0), (-3.0, 5.0)])
def test_uniform(dtype, low, high, no_fallback):
    x = sample(dtype, lambda t: t.uniform_(low, high))
    assert x.min() >= low and x.max() < high
    width = high - low
    slack = width * RESOLUTION[dtype] * 2
    assert_mean(x, (low + high) / 2, width / math.sqrt(12), slack)
    assert_std(x, width / math.sqrt(12), kurtosis=1.8, slack=width**2 * RESOLUTION[dtype])
    # Each tenth of the range holds a tenth of the samples.
    assert_fraction((x - low < width / 10), 0.1)
    assert_fraction((x - low >= 9 * width / 10), 0.1)
    assert_uncorrelated(x)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_uniform_16_bit_never_rounds_up_to_the_bound(dtype, no_fallback):
    # Draws on the dtype's grid, as the CPU's: [0, 1) stays below 1 after rounding.
    x = sample(dtype, lambda t: t.uniform_())
    assert x.max() == 1 - RESOLUTION[dtype]


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_normal(dtype, no_fallback):
    mean, std = 2.0, 3.0
    x = sample(dtype, lambda t: t.normal_(mean, std))
    slack = 8 * RESOLUTION[dtype]
    assert_mean(x, mean, std, slack * mean)
    assert_std(x, std, slack=slack * std**2)
    z = (x - mean) / std
    # The shape, not only the moments: P(|z| < 1) and P(|z| < 2), symmetric.
    assert_fraction(z.abs() < 1, math.erf(1 / math.sqrt(2)))
    assert_fraction(z.abs() < 2, math.erf(2 / math.sqrt(2)))
    assert_fraction(z > 0, 0.5)
    assert z.abs().max() < 7
    assert_uncorrelated(z)


def test_normal_std_zero_is_the_mean(no_fallback):
    assert torch.equal(torch.empty(10, device=VK).normal_(1.5, 0.0).cpu(), torch.full((10,), 1.5))


def test_normal_tensor_overloads(no_fallback):
    groups = N // 3
    means = torch.tensor([-10.0, 0.0, 10.0], device=VK).repeat_interleave(groups)
    stds = torch.tensor([1.0, 2.0, 0.5], device=VK).repeat_interleave(groups)
    cases = [
        (torch.normal(means, stds), means, stds),
        (torch.normal(means, 2.0), means, torch.full_like(stds, 2.0)),
        (torch.normal(3.0, stds), torch.full_like(means, 3.0), stds),
        (torch.normal(means, stds, out=torch.empty(0, device=VK)), means, stds),
    ]
    for x, mean, std in cases:
        assert x.device.type == "vulkan" and x.shape == means.shape
        z = ((x - mean) / std).cpu().double()
        for part in z.split(groups):
            assert_mean(part, 0.0, 1.0)
            assert_std(part, 1.0)


def test_normal_float_float_and_factories(no_fallback):
    for x in [torch.normal(1.0, 2.0, (N,), device=VK), torch.randn(N, device=VK) * 2 + 1,
              torch.randn_like(torch.empty(N, device=VK)) * 2 + 1]:
        assert x.device.type == "vulkan"
        x = x.cpu().double()
        assert_mean(x, 1.0, 2.0)
        assert_std(x, 2.0)
    for x in [torch.rand(N, device=VK), torch.rand_like(torch.empty(N, device=VK, dtype=torch.float16))]:
        assert x.device.type == "vulkan"
        x = x.cpu().double()
        assert x.min() >= 0 and x.max() < 1
        assert_mean(x, 0.5, 1 / math.sqrt(12), 1e-3)


def test_normal_complex_halves_the_variance_per_part(no_fallback):
    x = torch.randn(N, device=VK, dtype=torch.complex64).cpu()
    for part in (x.real.double(), x.imag.double()):
        assert_std(part, math.sqrt(0.5))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_log_normal(dtype, no_fallback):
    mean, std = 0.5, 0.75
    x = sample(dtype, lambda t: t.log_normal_(mean, std))
    assert x.min() > 0
    logs = x.log()
    slack = 4 * RESOLUTION[dtype]
    assert_mean(logs, mean, std, slack)
    assert_std(logs, std, slack=slack)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("lambd", [1.0, 4.0])
def test_exponential(dtype, lambd, no_fallback):
    x = sample(dtype, lambda t: t.exponential_(lambd))
    assert x.min() > 0  # never 0, as on CUDA
    assert_mean(x, 1 / lambd, 1 / lambd, 4 * RESOLUTION[dtype] / lambd)
    assert_std(x, 1 / lambd, kurtosis=9.0, slack=8 * RESOLUTION[dtype] / lambd**2)
    assert_fraction(x > 1 / lambd, math.exp(-1))
    assert_uncorrelated(x)


def test_exponential_tiny_scale_stays_positive_in_float16(no_fallback):
    assert torch.empty(N, device=VK, dtype=torch.float16).exponential_(1e6).cpu().min() > 0


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_cauchy(dtype, no_fallback):
    median, sigma = 1.0, 2.0
    x = sample(dtype, lambda t: t.cauchy_(median, sigma))
    # Quartiles at median -+ sigma; no moments to check.
    assert_fraction(x < median, 0.5)
    assert_fraction((x - median).abs() < sigma, 0.5)
    assert_fraction((x - median).abs() < sigma * math.tan(math.pi * 0.45), 0.9)
    assert_uncorrelated(x < median)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + INT_DTYPES)
def test_geometric(dtype, no_fallback):
    p = 0.25
    x = sample(dtype, lambda t: t.geometric_(p))
    assert x.min() == 1 and torch.equal(x, x.round())
    assert_mean(x, 1 / p, math.sqrt(1 - p) / p)
    for k in (1, 2, 5):
        assert_fraction(x == k, (1 - p) ** (k - 1) * p, f"P(X = {k})")
    assert_uncorrelated(x)
