"""torch.unique and unique_consecutive on the vulkan device
(csrc/aten/ops/sort/unique.cpp), in strict mode against the CPU: values,
inverse indices and counts, NaN (each its own value), empty and 0-dim
inputs, along a dimension (lexicographic order of the slices), and OpInfo
samples."""

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


@pytest.mark.parametrize("fn", [torch.unique, torch.unique_consecutive], ids=["unique", "consecutive"])
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("dtype", [torch.int64, torch.float32, torch.bool])
def test_along_dim(fn, dim, dtype, no_fallback):
    torch.manual_seed(0)
    # Few distinct values, so slices repeat (in and out of order); five columns
    # take row_ranks through an odd pairing round.
    x = torch.randint(0, 2, (7, 5, 3)).to(dtype)
    x[3] = x[1]
    x[4] = x[3]
    expected = fn(x, dim=dim, return_inverse=True, return_counts=True)
    actual = fn(V(x), dim=dim, return_inverse=True, return_counts=True)
    for a, e in zip(actual, expected):
        torch.testing.assert_close(a.cpu(), e)


def test_along_dim_nan_and_long_rows(no_fallback):
    x = torch.tensor([[1.0, float("nan")], [1.0, float("nan")], [0.0, 2.0], [-0.0, 2.0]])
    expected = torch.unique(x, dim=0, return_inverse=True, return_counts=True)
    actual = torch.unique(V(x), dim=0, return_inverse=True, return_counts=True)
    for a, e in zip(actual, expected):
        torch.testing.assert_close(a.cpu(), e, equal_nan=True)
    # 37 columns: six pairing rounds of ranks.
    rows = torch.randint(0, 2, (40, 37))
    rows[20:] = rows[:20].flip(0)
    for a, e in zip(torch.unique(V(rows), dim=0, return_counts=True), torch.unique(rows, dim=0, return_counts=True)):
        torch.testing.assert_close(a.cpu(), e)


@pytest.mark.parametrize("shape,dim", [((0, 3), 0), ((3, 0), 1), ((3, 0), 0), ((0, 0), 0)])
def test_along_empty_dim(shape, dim, no_fallback):
    x = torch.empty(shape)
    try:
        expected = torch.unique(x, dim=dim, return_inverse=True, return_counts=True)
    except RuntimeError as e:
        with pytest.raises(RuntimeError, match=str(e).strip()[:40]):
            torch.unique(V(x), dim=dim)
        return
    actual = torch.unique(V(x), dim=dim, return_inverse=True, return_counts=True)
    for a, e in zip(actual, expected):
        assert a.shape == e.shape and a.dtype == e.dtype


@pytest.mark.parametrize("return_inverse", [False, True])
def test_older_unique(return_inverse, no_fallback):
    # torch._unique: values and inverse indices, no counts.
    x = torch.tensor([[3, 1, 3], [2, 1, 1]])
    for a, e in zip(torch._unique(V(x), return_inverse=return_inverse), torch._unique(x, return_inverse=return_inverse)):
        assert a.shape == e.shape and a.dtype == e.dtype
        torch.testing.assert_close(a.cpu(), e)
