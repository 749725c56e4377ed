import math

import pytest
import torch

from tests.opinfo import check_op, parametrize

OPS = ["cumsum", "cumprod", "cummax", "cummin", "logcumsumexp"]


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


@pytest.mark.parametrize("shape,dim", [((5000,), 0), ((20000,), 0), ((3, 3000), 1), ((3, 10000), 1),
                                       ((2100, 3), 0), ((40, 7, 30), 1), ((20, 70000), 0)])
def test_long_and_strided_scans(shape, dim, no_fallback):
    # Rows longer than one chunk of a workgroup carry across chunks, and
    # longer ones across blocks of several workgroups; rows along an outer dim
    # are strided; many adjacent rows take one invocation each.
    g = torch.Generator().manual_seed(0)
    x = torch.randn(shape, generator=g, dtype=torch.float64)
    d = x.to("vulkan")
    torch.testing.assert_close(d.cumsum(dim).cpu(), x.cumsum(dim))
    torch.testing.assert_close(d.logcumsumexp(dim).cpu(), x.logcumsumexp(dim))
    torch.testing.assert_close(torch.cumprod(1 + d / 1000, dim).cpu(), torch.cumprod(1 + x / 1000, dim))
    i = torch.randint(0, 5, shape, generator=g)
    for op in (torch.cummax, torch.cummin):
        values, indices = op(i.to("vulkan"), dim)
        expected = op(i, dim)
        assert torch.equal(values.cpu(), expected.values) and torch.equal(indices.cpu(), expected.indices)


def test_cummax_ties_and_nan_take_the_last_index(no_fallback):
    x = torch.tensor([1.0, 3.0, 3.0, float("nan"), 5.0, float("nan"), 2.0, 3.0])
    for op in (torch.cummax, torch.cummin):
        values, indices = op(x.to("vulkan"), 0)
        expected = op(x, 0)
        torch.testing.assert_close(values.cpu(), expected.values, equal_nan=True)
        assert torch.equal(indices.cpu(), expected.indices)
    for n in (3000, 20000):  # every element ties, across chunks and blocks
        assert torch.equal(torch.cummax(torch.zeros(n, device="vulkan"), 0).indices.cpu(), torch.arange(n))


def test_logcumsumexp_infinities_and_nan(no_fallback):
    x = torch.tensor([-math.inf, -math.inf, 0.0, math.inf, 1.0, math.inf, float("nan"), 2.0])
    torch.testing.assert_close(x.to("vulkan").logcumsumexp(0).cpu(), x.logcumsumexp(0), equal_nan=True)


def test_in_place_and_out_into_a_transposed_tensor(no_fallback):
    x = torch.randn(6, 9)
    d = x.to("vulkan")
    d.cumsum_(1)
    torch.testing.assert_close(d.cpu(), x.cumsum(1))
    out = torch.empty(9, 6, device="vulkan").t()
    torch.cumprod(x.to("vulkan"), 0, out=out)
    torch.testing.assert_close(out.cpu(), x.cumprod(0))
    assert torch.equal(torch.cumsum(torch.tensor([True, False, True], device="vulkan"), 0).cpu(),
                       torch.tensor([1, 1, 2]))
