"""torch.unique and unique_consecutive on the vulkan device
(csrc/aten/ops/sort/unique.cpp), in strict mode against the CPU: values,
inverse indices and counts, NaN (each its own value), empty and 0-dim
inputs, and OpInfo samples."""

import pytest
import torch

from tests.opinfo import check_op, parametrize


def V(t):
    return t.to("vulkan")


@pytest.mark.parametrize("fn", [torch.unique, torch.unique_consecutive], ids=["unique", "consecutive"])
@pytest.mark.parametrize("x", [torch.tensor([[3, 1, 3], [2, 1, 1]]), torch.tensor([1.0, float("nan"), 1.0, float("nan")]),
                               torch.tensor([], dtype=torch.long), torch.tensor(4), torch.tensor([True, False, True])],
                         ids=["ints", "nan", "empty", "0-dim", "bool"])
def test_matches_cpu(fn, x, no_fallback):
    expected = fn(x, return_inverse=True, return_counts=True)
    actual = fn(V(x), return_inverse=True, return_counts=True)
    for a, e in zip(actual, expected):
        torch.testing.assert_close(a.cpu(), e, equal_nan=True)
    torch.testing.assert_close(fn(V(x)).cpu(), fn(x), equal_nan=True)


@parametrize(["unique", "unique_consecutive"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
