"""multilabel_margin_loss on the vulkan device
(csrc/aten/ops/loss/multilabel_margin.cpp), in strict mode against the CPU:
target lists ended by -1 (or full), repeated targets, every reduction,
vector inputs, gradients, is_target, OpInfo samples and bad arguments."""

import pytest
import torch
import torch.nn.functional as F

from tests.helpers import assert_forward_backward_match
from tests.opinfo import check_op, parametrize


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_matches_cpu(reduction, no_fallback):
    torch.manual_seed(0)
    x = torch.randn(5, 6)
    target = torch.tensor([[3, 0, -1, 1, 1, 1],   # two targets, then ignored entries
                           [5, 5, 2, -1, 0, 0],   # a repeated target
                           [0, 1, 2, 3, 4, 5],    # every class a target: no hinge
                           [-1, 2, 2, 2, 2, 2],   # no targets
                           [4, 1, 3, 2, 0, -1]])
    assert_forward_backward_match(lambda t: F.multilabel_margin_loss(t, target.to(t.device), reduction=reduction),
                                  x, rtol=1e-5, atol=1e-6)
    out, is_target = torch.ops.aten.multilabel_margin_loss_forward(x.to("vulkan"), target.to("vulkan"), 1)
    expected = torch.ops.aten.multilabel_margin_loss_forward(x, target, 1)
    torch.testing.assert_close(is_target.cpu(), expected[1])


def test_vector_input_and_bad_arguments(no_fallback):
    x = torch.randn(4)
    assert_forward_backward_match(lambda t: F.multilabel_margin_loss(t, torch.tensor([2, 0, -1, 3], device=t.device),
                                                                     reduction="none"), x)
    with pytest.raises(RuntimeError, match="inconsistent target size"):
        F.multilabel_margin_loss(torch.randn(3, 4, device="vulkan"), torch.zeros(3, 3, dtype=torch.long, device="vulkan"))
    for bad in ([[0, 3, -1], [1, -1, 0]], [[0, -1, 1], [1, -1, 7]], [[0, -2, 1], [1, -1, 0]]):
        # As the CPU: every entry in [-1, C), listed or not; raised at the next synchronization.
        v = F.multilabel_margin_loss(torch.randn(2, 3, device="vulkan"), torch.tensor(bad, device="vulkan"))
        with pytest.raises(IndexError):
            v.item()
    with pytest.raises(RuntimeError, match="expected target on vulkan"):
        F.multilabel_margin_loss(torch.randn(2, 3, device="vulkan"), torch.zeros(2, 3, dtype=torch.long))
    # The device stays usable.
    assert F.multilabel_margin_loss(torch.zeros(1, 2, device="vulkan"), torch.tensor([[0, -1]], device="vulkan")).item() == 0.5


@parametrize(["nn.functional.multilabel_margin_loss"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
