"""ctc_loss on the vulkan device (csrc/aten/ops/loss/ctc.cpp), in strict mode
against the CPU: padded and concatenated targets, int32 and int64 targets
and tensor or list lengths, repeated labels (which need a blank between
them), every reduction, zero_infinity with an impossible alignment,
float32 and float64, gradients, and OpInfo samples."""

import pytest
import torch
import torch.nn.functional as F

from tests.helpers import assert_forward_backward_match
from tests.opinfo import check_op, parametrize


def problem(dtype=torch.float32, T=12, N=4, C=6, S=5):
    torch.manual_seed(0)
    log_probs = torch.randn(T, N, C, dtype=dtype).log_softmax(2)
    targets = torch.randint(1, C, (N, S))
    targets[1, :3] = 2  # repeated labels
    input_lengths = torch.tensor([T, T - 3, 7, T])
    target_lengths = torch.tensor([S, 3, 0, 4])
    return log_probs, targets, input_lengths, target_lengths


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_matches_cpu(reduction, dtype, no_fallback):
    log_probs, targets, il, tl = problem(dtype)
    assert_forward_backward_match(
        lambda lp: F.ctc_loss(lp, targets.to(lp.device), il.to(lp.device), tl.to(lp.device), reduction=reduction),
        log_probs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("int32", [False, True])
def test_concatenated_targets_and_lists(int32, no_fallback):
    log_probs, targets, il, tl = problem()
    flat = torch.cat([targets[b, :tl[b]] for b in range(4)])
    if int32:
        flat = flat.int()
    assert_forward_backward_match(
        lambda lp: F.ctc_loss(lp, flat.to(lp.device), il.tolist(), tl.tolist(), reduction="sum"),
        log_probs, rtol=1e-5, atol=1e-6)


def test_zero_infinity(no_fallback):
    log_probs, targets, il, tl = problem()
    il = torch.tensor([12, 2, 7, 12])  # two inputs cannot carry three labels: nll = inf
    for zero_infinity in (False, True):
        # Without zero_infinity the infeasible element's gradient is NaN, on the CPU too.
        assert_forward_backward_match(
            lambda lp: F.ctc_loss(lp, targets.to(lp.device), il.to(lp.device), tl.to(lp.device),
                                  reduction="none", zero_infinity=zero_infinity),
            log_probs, rtol=1e-5, atol=1e-6, equal_nan=True)


def test_targets_from_the_host(no_fallback):
    # As on CUDA, the targets may stay on the CPU.
    log_probs, targets, il, tl = problem()
    expected = F.ctc_loss(log_probs, targets, il, tl)
    torch.testing.assert_close(F.ctc_loss(log_probs.to("vulkan"), targets, il, tl).cpu(), expected)


def test_bad_arguments(no_fallback):
    log_probs, targets, il, tl = problem()
    v = log_probs.to("vulkan")
    with pytest.raises(RuntimeError, match="blank must be in label range"):
        F.ctc_loss(v, targets.to("vulkan"), il.tolist(), tl.tolist(), blank=6)
    with pytest.raises(RuntimeError, match="input_lengths to have value at most"):
        F.ctc_loss(v, targets.to("vulkan"), [13, 1, 1, 1], tl.tolist())


@parametrize(["nn.functional.ctc_loss"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
