"""multi_margin_loss on the vulkan device (csrc/aten/ops/loss/multi_margin.cpp),
in strict mode against the CPU: p = 1 and 2, margins, class weights, every
reduction, vector inputs, gradients, the out= forms, OpInfo samples and bad
arguments."""

import pytest
import torch
import torch.nn.functional as F

from tests.helpers import assert_forward_backward_match, assert_out_matches_cpu, assert_raises_as_cpu
from tests.opinfo import check_op, parametrize


@pytest.mark.parametrize("p", [1, 2])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("weighted", [False, True])
def test_matches_cpu(p, reduction, weighted, no_fallback):
    torch.manual_seed(0)
    x, target, weight = torch.randn(6, 5), torch.tensor([0, 4, 2, 2, 1, 3]), torch.rand(5)
    w = weight if weighted else None
    assert_forward_backward_match(
        lambda t: F.multi_margin_loss(t, target.to(t.device), p=p, margin=0.7,
                                      weight=None if w is None else w.to(t.device), reduction=reduction),
        x, rtol=1e-5, atol=1e-6)


def test_vector_input_and_bad_arguments(no_fallback):
    x = torch.randn(5)
    assert_forward_backward_match(lambda t: F.multi_margin_loss(t, torch.tensor([3], device=t.device)), x)
    # ATen's shape check words it by version (2.13: the first, 2.11: the second).
    with pytest.raises(RuntimeError, match="target tensor should be 1-D|inconsistent target size"):
        F.multi_margin_loss(torch.randn(3, 4, device="vulkan"), torch.tensor([1, 2], device="vulkan"))
    with pytest.raises(RuntimeError, match="only p == 1 and p == 2 supported"):  # F checks p before
        torch.ops.aten.multi_margin_loss(torch.randn(3, 4, device="vulkan"), torch.tensor([1, 2, 0], device="vulkan"),
                                         3, 1.0, None, 1)


@pytest.mark.parametrize("reduction", [0, 1, 2])  # none, mean, sum
def test_out_forms(reduction, no_fallback):
    torch.manual_seed(0)
    x, target, weight = torch.randn(4, 5), torch.tensor([0, 4, 2, 1]), torch.rand(5)
    grad = torch.randn(4) if reduction == 0 else torch.tensor(0.7)

    def loss(x, target, weight, out):
        return torch.ops.aten.multi_margin_loss.out(x, target, 2, 0.7, weight, reduction, out=out)

    def backward(grad, x, target, weight, out):
        return torch.ops.aten.multi_margin_loss_backward.grad_input(
            grad, x, target, 2, 0.7, weight, reduction, grad_input=out)

    assert_out_matches_cpu(loss, x, target, weight)
    assert_out_matches_cpu(backward, grad, x, target, weight)
    assert_raises_as_cpu(loss, x, target, weight, torch.empty(0, dtype=torch.float64))
    assert_raises_as_cpu(backward, grad, x, target, weight, torch.empty(0, dtype=torch.int64))
    assert_raises_as_cpu(loss, x, target[:3], weight, torch.empty(0))  # the shape check


@parametrize(["nn.functional.multi_margin_loss"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
