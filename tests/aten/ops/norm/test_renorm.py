"""renorm on the vulkan device (csrc/aten/ops/norm/renorm.cpp), in strict
mode against the CPU: p = 1, 2, 3 and inf along every dimension, slices
under and over the limit, the three forms, 16-bit types and OpInfo
samples."""

import math

import pytest
import torch

from tests.opinfo import check_op, parametrize


@pytest.mark.parametrize("p", [1, 2, 3, math.inf], ids=str)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_matches_cpu(p, dim, no_fallback):
    torch.manual_seed(0)
    x = torch.randn(4, 5, 3) * torch.tensor([0.1, 1, 3])
    torch.testing.assert_close(torch.renorm(x.to("vulkan"), p, dim, 1.5).cpu(), torch.renorm(x, p, dim, 1.5))
    xv = x.to("vulkan")
    assert xv.renorm_(p, dim, 1.5) is xv
    torch.testing.assert_close(xv.cpu(), torch.renorm(x, p, dim, 1.5))


def test_half(no_fallback):
    x = torch.randn(6, 4).half()
    torch.testing.assert_close(torch.renorm(x.to("vulkan"), 2, 0, 1.0).cpu(), torch.renorm(x.float(), 2, 0, 1.0).half(),
                               rtol=1e-3, atol=1e-3)


@parametrize(["renorm"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
