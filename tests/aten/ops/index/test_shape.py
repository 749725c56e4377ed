import pytest
import torch

from tests.opinfo import check_op, parametrize

OPS = ["cat", "stack", "flip", "roll", "tril", "triu", "repeat"]


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


def test_cat_promotes_and_skips_empty(no_fallback):
    parts = [torch.arange(6).view(2, 3).to(torch.int32), torch.randn(1, 3), torch.empty(0),
             torch.ones(2, 3, dtype=torch.float16)]
    expected = torch.cat(parts)
    actual = torch.cat([p.to("vulkan") for p in parts])
    assert actual.dtype == expected.dtype
    torch.testing.assert_close(actual.cpu(), expected)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cat_noncontiguous(dim, no_fallback):
    a = torch.randn(4, 5).t()
    b = torch.randn(5, 4)
    expected = torch.cat([a, b], dim)
    torch.testing.assert_close(torch.cat([a.to("vulkan"), b.to("vulkan")], dim).cpu(), expected)
