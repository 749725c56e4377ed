"""Comparisons and logical ops (csrc/aten/ops/elementwise/comparison.cpp) by
their OpInfo samples, and torch.equal, in strict mode against the CPU."""

import torch

from tests.opinfo import check_op, parametrize

OPS = ["eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "logical_not"]


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


def test_equal(no_fallback):
    x = torch.randn(3, 4)
    v = x.to("vulkan")
    assert torch.equal(v, x.clone().to("vulkan"))
    assert not torch.equal(v, (x + 1).to("vulkan"))
    assert not torch.equal(v, v[:2])
    assert not torch.equal(torch.full((2,), float("nan"), device="vulkan"), torch.full((2,), float("nan"), device="vulkan"))
    assert torch.equal(torch.empty(0, device="vulkan"), torch.empty(0, device="vulkan"))
    m = torch.randn(3, 5)
    torch.testing.assert_close(torch.cov(m.to("vulkan")).cpu(), torch.cov(m))  # cov calls equal
