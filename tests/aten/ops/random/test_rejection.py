"""_standard_gamma, poisson, binomial and _sample_dirichlet
(csrc/aten/ops/random/rejection.cpp), native in strict mode: moments and
point probabilities of 1e5 samples on both sides of each sampler's switch
(Gamma's boost below 1; Knuth/PTRS at rate 10; inversion/BTRS at
count * min(p, 1 - p) = 10, and the flip above p = 0.5), the CPU's edge
values, reproducibility, torch.distributions, and bad rates."""

import math

import pytest
import torch

from tests.aten.ops.random.stats import N, assert_fraction, assert_mean, assert_std, assert_uncorrelated
from tests.helpers import VK


@pytest.fixture(autouse=True)
def _seeded():
    torch.manual_seed(1234)


def full(value, dtype=torch.float32):
    return torch.full((N,), value, dtype=dtype, device=VK)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("alpha", [0.3, 1.0, 2.5, 60.0])
def test_gamma(alpha, dtype, no_fallback):
    x = torch._standard_gamma(full(alpha, dtype)).cpu().double()
    assert x.dtype == torch.float64 and (x > 0).all()
    # Gamma(alpha, 1): mean = variance = alpha, excess kurtosis 6 / alpha.
    assert_mean(x, alpha, math.sqrt(alpha))
    assert_std(x, math.sqrt(alpha), kurtosis=3 + 6 / alpha)
    # The median of Gamma(1) = Exp(1) is log 2.
    if alpha == 1.0:
        assert_fraction(x < math.log(2), 0.5)
    assert_uncorrelated(x)


def test_gamma_edges_and_half(no_fallback):
    x = torch._standard_gamma(torch.tensor([0.0, -1.0, float("nan"), float("inf")], device=VK)).cpu()
    expected = torch._standard_gamma(torch.tensor([0.0, -1.0, float("nan"), float("inf")]))
    torch.testing.assert_close(x, expected)
    h = torch._standard_gamma(full(4.0, torch.float16)).cpu().double()
    assert_mean(h, 4.0, 2.0, slack=4.0 * 2**-11)


def poisson_pmf(k, rate):
    return math.exp(-rate + k * math.log(rate) - math.lgamma(k + 1))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("rate", [0.5, 3.0, 9.9, 10.0, 40.0, 1e4])
def test_poisson(rate, dtype, no_fallback):
    x = torch.poisson(full(rate, dtype)).cpu().double()
    assert (x >= 0).all() and (x == x.round()).all()
    assert_mean(x, rate, math.sqrt(rate))
    assert_std(x, math.sqrt(rate), kurtosis=3 + 1 / rate)
    mode = math.floor(rate)
    assert_fraction(x == mode, poisson_pmf(mode, rate), what=f"P(X = {mode})")


def test_poisson_edges_and_bad_rates(no_fallback):
    x = torch.poisson(torch.tensor([0.0, float("inf")], device=VK)).cpu()
    assert x.tolist() == [0.0, float("inf")]
    for bad in (-1.0, float("nan")):
        y = torch.poisson(torch.tensor([2.0, bad], device=VK))
        with pytest.raises(RuntimeError, match="Poisson rate"):
            y.cpu()
    assert torch.poisson(torch.tensor([0.0], device=VK)).item() == 0.0  # usable after


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("count, p", [(20, 0.1), (100, 0.3), (100, 0.9), (10, 0.95), (1000, 0.5), (5, 0.5)])
def test_binomial(count, p, dtype, no_fallback):
    x = torch.binomial(full(count, dtype), full(p, dtype)).cpu().double()
    assert (x >= 0).all() and (x <= count).all() and (x == x.round()).all()
    var = count * p * (1 - p)
    assert_mean(x, count * p, math.sqrt(var))
    assert_std(x, math.sqrt(var), kurtosis=3 + (1 - 6 * p * (1 - p)) / var)
    mode = math.floor((count + 1) * p)
    pmf = math.comb(count, mode) * p**mode * (1 - p) ** (count - mode)
    assert_fraction(x == mode, pmf, what=f"P(X = {mode})")


def test_binomial_edges(no_fallback):
    count = torch.tensor([-1.0, 5, 5, 5, 5, 7])
    prob = torch.tensor([0.5, -0.1, 1.5, 0.0, float("nan"), 1.0])
    torch.testing.assert_close(torch.binomial(count.to(VK), prob.to(VK)).cpu(), torch.binomial(count, prob),
                               equal_nan=True)


def test_reproducible_and_fresh(no_fallback):
    rates = torch.linspace(0.1, 30, 1000, device=VK)
    torch.manual_seed(7)
    a = torch.poisson(rates).cpu()
    b = torch.poisson(rates).cpu()
    torch.manual_seed(7)
    torch.testing.assert_close(torch.poisson(rates).cpu(), a)
    assert not torch.equal(a, b)


def test_distributions(no_fallback):
    concentration = torch.tensor([0.5, 2.0, 5.0], device=VK)
    d = torch.distributions.Dirichlet(concentration).sample((20_000,)).cpu().double()
    torch.testing.assert_close(d.sum(-1), torch.ones(20_000, dtype=torch.float64))
    mean = (concentration / concentration.sum()).cpu().double()
    total = concentration.sum().item()
    for j in range(3):
        var = mean[j].item() * (1 - mean[j].item()) / (total + 1)
        assert_mean(d[:, j], mean[j].item(), math.sqrt(var))
    beta = torch.distributions.Beta(torch.tensor(2.0, device=VK), torch.tensor(3.0, device=VK)).sample((N,)).cpu()
    assert_mean(beta.double(), 0.4, math.sqrt(0.04))
    g = torch.distributions.Gamma(torch.tensor(3.0, device=VK), torch.tensor(2.0, device=VK)).sample((N,)).cpu()
    assert_mean(g.double(), 1.5, math.sqrt(0.75))
    counts = torch.distributions.Poisson(torch.tensor(4.0, device=VK)).sample((N,)).cpu()
    assert_mean(counts.double(), 4.0, 2.0)
    b = torch.distributions.Binomial(30, torch.tensor(0.2, device=VK)).sample((N,)).cpu()
    assert_mean(b.double(), 6.0, math.sqrt(4.8))


def test_integer_parameters_raise(no_fallback):
    with pytest.raises(NotImplementedError):
        torch.poisson(torch.ones(3, dtype=torch.int64, device=VK))
