"""bincount and histc on the vulkan device (csrc/aten/ops/reduce/histogram.cpp),
in strict mode against the CPU: weights and their dtypes, minlength, empty
inputs, values outside the range and NaN, the range taken from the data,
and the errors."""

import pytest
import torch

from tests.opinfo import check_op, parametrize


def V(t):
    return t.to("vulkan")


@pytest.mark.parametrize("weights", [None, torch.float32, torch.float64, torch.int32], ids=str)
def test_bincount(weights, no_fallback):
    torch.manual_seed(0)
    x = torch.randint(0, 9, (50,))
    w = None if weights is None else (torch.rand(50) * 10).to(weights)
    for minlength in (0, 20):
        expected = torch.bincount(x, w, minlength)
        actual = torch.bincount(V(x), None if w is None else V(w), minlength)
        torch.testing.assert_close(actual.cpu(), expected)
    torch.testing.assert_close(torch.bincount(V(torch.tensor([], dtype=torch.long)), minlength=3).cpu(),
                               torch.zeros(3, dtype=torch.long))
    with pytest.raises(RuntimeError, match="non-negative"):
        torch.bincount(V(torch.tensor([1, -1])))


def test_histc(no_fallback):
    torch.manual_seed(0)
    x = torch.randn(1000)
    x[:3] = torch.tensor([float("nan"), 10.0, -10.0])
    for bins, low, high in ((4, -1, 1), (7, -2.5, 0.5)):
        torch.testing.assert_close(torch.histc(V(x), bins, low, high).cpu(), torch.histc(x, bins, low, high))
    finite = x[1:]  # the range from the data (min == max), NaN-free as the CPU requires
    torch.testing.assert_close(torch.histc(V(finite), 13).cpu(), torch.histc(finite, 13))
    with pytest.raises(RuntimeError, match="is not finite"):
        torch.histc(V(x), 13)
    torch.testing.assert_close(torch.histc(V(torch.full((5,), 2.0)), 4).cpu(), torch.histc(torch.full((5,), 2.0), 4))
    with pytest.raises(RuntimeError, match="max must be larger than min"):
        torch.histc(V(x), 4, 1, -1)


@parametrize(["bincount", "histc"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
