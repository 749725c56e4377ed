"""Statistical checks for the sampling tests: each compares a sample
statistic with its expectation within 5 standard errors (plus the output
dtype's rounding), so a seeded run passes and a wrong distribution fails."""

import math

import torch

N = 100_000

# Rounding of one sample in each dtype, relative to its magnitude.
RESOLUTION = {torch.float16: 2**-11, torch.bfloat16: 2**-8, torch.float32: 2**-24, torch.float64: 2**-53}


def assert_close(value, expected, standard_error, slack=0.0, what="statistic"):
    tolerance = 5 * standard_error + slack
    assert abs(value - expected) <= tolerance, f"{what} {value} vs {expected} (tolerance {tolerance})"


def assert_mean(x, mean, std, slack=0.0):
    assert_close(x.mean().item(), mean, std / math.sqrt(x.numel()), slack, "mean")


def assert_std(x, std, kurtosis=3.0, slack=0.0):
    # Standard error of the sample variance: sigma^2 sqrt((kurtosis - 1) / n).
    se = std**2 * math.sqrt((kurtosis - 1) / x.numel())
    assert_close(x.var().item(), std**2, se, slack, "variance")


def assert_fraction(mask, p, what="fraction"):
    mask = mask.double()
    assert_close(mask.mean().item(), p, math.sqrt(p * (1 - p) / mask.numel()) + 1e-12, what=what)


def assert_uncorrelated(x):
    """Neighbours (within a Philox block, lag 1 and 2; across blocks, lag 4)
    are uncorrelated: no lane reuses another's words."""
    x = x.flatten().double()
    for lag in (1, 2, 4):
        a, b = x[:-lag], x[lag:]
        r = ((a - a.mean()) * (b - b.mean())).mean() / (a.std() * b.std())
        assert_close(r.item(), 0.0, 1 / math.sqrt(a.numel()), what=f"lag-{lag} correlation")
