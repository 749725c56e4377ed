"""The vectorized reduce paths (shaders/reduce/reduce.comp modes 2 and 3):
aligned and misaligned starts, ragged heads and tails, every dtype class."""

import pytest
import torch

from tests.helpers import ALL_DTYPES


def check(x, f):
    torch.testing.assert_close(f(x.to("vulkan")).cpu(), f(x), equal_nan=True)


def sample(shape, dtype):
    return (torch.randn(shape, generator=torch.Generator().manual_seed(0)) * 3).to(dtype)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_rows_aligned_misaligned_and_ragged(dtype, no_fallback):
    x = sample((9, 301), dtype)
    for view in (x, x[:, 1:], x[:, 3:-2], x[1:].reshape(-1)[5:]):
        check(view, lambda t: t.amax(-1))
        check(view, lambda t: t.amin(-1, keepdim=True))
        check(view, lambda t: torch.count_nonzero(t, -1))
        check(view, lambda t: t.any(-1))
    check(x, lambda t: t.amax())


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_columns_aligned_misaligned_and_ragged(dtype, no_fallback):
    x = sample((21, 1037), dtype)  # 1037 outputs: not a multiple of any VEC
    for view in (x, x[:, 1:], x[:, 3:], x[1:, 2:-5]):
        check(view, lambda t: t.amax(0))
        check(view, lambda t: t.amin(0, keepdim=True))
        check(view, lambda t: torch.count_nonzero(t, 0))
        check(view, lambda t: t.all(0))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int32,
                                   torch.int64], ids=str)
def test_sums_and_means_over_rows_and_columns(dtype, no_fallback):
    x = sample((33, 1030), dtype)
    check(x, lambda t: t.sum(-1))
    check(x[:, 1:], lambda t: t.sum(1, keepdim=True))
    check(x, lambda t: t.sum(0))
    check(x[:, 1:], lambda t: t.sum(0))
    check(x.reshape(3, 11, 1030), lambda t: t.sum((0, 1)))
    if dtype.is_floating_point:
        check(x, lambda t: t.mean(0))
        check(x[:, 1:], lambda t: t.mean(-1))
        check(x, lambda t: torch.linalg.vector_norm(t, 2, 0))
        check(x, lambda t: t.nansum(-1))


def test_columns_over_two_reduced_dims(no_fallback):
    x = sample((4, 3, 5, 1024), torch.float32)
    check(x, lambda t: t.sum((0, 2)))
    check(x, lambda t: t.amax((0, 2)))


def test_long_rows_split_into_parts(no_fallback):
    x = sample((2, 300001), torch.float32)
    check(x, lambda t: t.sum(-1))
    check(x[:, 1:], lambda t: t.amax(-1))
    check(x, lambda t: t.sum())
    check(x.to(torch.int64), lambda t: t.sum())


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.int64, torch.bool], ids=str)
def test_columns_shared_by_several_invocations(dtype, no_fallback):
    # 130 rows: several invocations share each output group's rows and
    # combine in shared memory, with heads, ragged ends and a reduced dim
    # split in two.
    x = sample((130, 1037), dtype)
    for view in (x, x[:, 1:], x[1:, 3:-2]):
        check(view, lambda t: t.amax(0))
        check(view, lambda t: torch.count_nonzero(t, 0))
    if dtype != torch.bool:
        check(x, lambda t: t.sum(0))
        check(x[:, 1:], lambda t: t.sum(0))
        check(x.reshape(2, 65, 1037), lambda t: t.sum((0, 1)))


def test_long_columns_split_into_parts(no_fallback):
    x = sample((600, 1027), torch.float32)
    exact = x.double().sum(0)  # CPU's float sum is the less accurate one here
    torch.testing.assert_close(x.to("vulkan").sum(0).cpu().double(), exact, rtol=1e-6, atol=1e-5)
    check(x[:, 1:], lambda t: t.amin(0))
    # Long enough for parts after a workgroup's invocations share each group.
    y = sample((70000, 24), torch.float32)
    torch.testing.assert_close(y.to("vulkan").sum(0).cpu().double(), y.double().sum(0), rtol=1e-6, atol=1e-4)
    check(y[:, 1:], lambda t: t.amax(0))


def test_out_variant(no_fallback):
    x = sample((7, 1030), torch.float32)
    d = x.to("vulkan")
    out = torch.empty(1030, device="vulkan")
    torch.sum(d, 0, out=out)
    torch.testing.assert_close(out.cpu(), x.sum(0))
    out = torch.empty(7, device="vulkan")
    torch.amax(d[:, 1:], 1, out=out)
    torch.testing.assert_close(out.cpu(), x[:, 1:].amax(1))


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.float64], ids=str)
def test_nan_propagates_through_max_and_min(dtype, no_fallback):
    x = sample((5, 1030), dtype)
    x[2, 7] = float("nan")
    x[:, 900] = float("nan")
    for dim in (0, 1):
        check(x, lambda t: t.amax(dim))
        check(x[:, 1:], lambda t: t.amin(dim))


def test_infinity_survives_compensated_sums(no_fallback):
    x = torch.ones(4, 1030)
    x[1, 5] = float("inf")
    x[2, 900] = -float("inf")
    check(x, lambda t: t.sum(1))
    check(x, lambda t: t.sum(0))


def test_float_sum_of_a_million_tenths_is_accurate(no_fallback):
    x = torch.full((10**6,), 0.1)
    got = x.to("vulkan").sum().item()
    assert abs(got - x.double().sum().item()) <= 0.0079  # one float32 ulp at 1e5
    cols = torch.full((1000, 1024), 0.1)
    torch.testing.assert_close(cols.to("vulkan").sum(0).cpu().double(), cols.double().sum(0), rtol=1e-6, atol=0)
