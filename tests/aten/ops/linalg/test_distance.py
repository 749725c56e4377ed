"""cdist and pdist on the vulkan device (csrc/aten/ops/linalg/distance.cpp),
in strict mode against the CPU: p = 0, 1, 1.5, 2, 3 and inf, values and
gradients of both operands, batch broadcasting, the matrix-product form of
p = 2, zero distances, OpInfo samples and bad arguments."""

import math

import pytest
import torch

from tests.helpers import assert_forward_backward_match
from tests.opinfo import check_op, parametrize

P = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, math.inf]


@pytest.mark.parametrize("p", P, ids=str)
def test_cdist_matches_cpu(p, no_fallback):
    torch.manual_seed(0)
    x1, x2 = torch.randn(2, 1, 5, 4), torch.randn(3, 6, 4)
    x2[1, 2] = x1[0, 0, 3]  # a zero distance (its gradient is zero)
    x2[0, 1, 0] = x1[1, 0, 2, 0]  # a zero difference
    assert_forward_backward_match(lambda a, b: torch.cdist(a, b, p), x1, x2, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("mode", ["use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"])
def test_cdist_euclidean_modes(mode, no_fallback):
    torch.manual_seed(0)
    assert_forward_backward_match(lambda a, b: torch.cdist(a, b, compute_mode=mode), torch.randn(30, 7),
                                  torch.randn(28, 7), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("p", P, ids=str)
def test_pdist_matches_cpu(p, no_fallback):
    torch.manual_seed(0)
    x = torch.randn(7, 5)
    x[4] = x[1]
    assert_forward_backward_match(lambda t: torch.nn.functional.pdist(t, p), x, rtol=1e-4, atol=1e-5)


def test_empty_and_bad_arguments(no_fallback):
    assert torch.cdist(torch.ones(2, 0, 3, device="vulkan"), torch.ones(4, 3, device="vulkan")).shape == (2, 0, 4)
    assert torch.equal(torch.cdist(torch.ones(2, 0, device="vulkan"), torch.ones(3, 0, device="vulkan")).cpu(),
                       torch.zeros(2, 3))
    assert torch.nn.functional.pdist(torch.ones(1, 3, device="vulkan")).numel() == 0
    with pytest.raises(RuntimeError, match="same number of columns"):
        torch.cdist(torch.ones(2, 3, device="vulkan"), torch.ones(2, 4, device="vulkan"))
    with pytest.raises(RuntimeError, match="non-negative p"):
        torch.cdist(torch.ones(2, 3, device="vulkan"), torch.ones(2, 3, device="vulkan"), p=-1)


@parametrize(["cdist", "nn.functional.pdist"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant, tolerances={torch.float32: (1e-4, 1e-5)})
