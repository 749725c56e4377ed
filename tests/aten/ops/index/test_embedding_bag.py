"""nn.EmbeddingBag / F.embedding_bag on the vulkan device
(csrc/aten/ops/index/embedding_bag.cpp), in strict mode against the CPU:
sum, mean and max bags with empty bags, padding_idx, per_sample_weights,
include_last_offset and 2-D input, their gradients (weights and
per_sample_weights), and the errors."""

import pytest
import torch
import torch.nn.functional as F

from tests.opinfo import check_op, parametrize

INDICES = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 0, 0])
OFFSETS = torch.tensor([0, 4, 4, 7])  # the second bag is empty


def both(weight, indices, offsets, per_sample_weights=None, **kwargs):
    """F.embedding_bag on the CPU and on the vulkan device, forward and
    backward, compared."""
    torch.manual_seed(0)
    w, wv = weight.clone().requires_grad_(), weight.to("vulkan").requires_grad_()
    p = pv = None
    if per_sample_weights is not None:
        p, pv = per_sample_weights.clone().requires_grad_(), per_sample_weights.to("vulkan").requires_grad_()
    out = F.embedding_bag(indices, w, offsets, per_sample_weights=p, **kwargs)
    outv = F.embedding_bag(indices.to("vulkan"), wv, None if offsets is None else offsets.to("vulkan"),
                           per_sample_weights=pv, **kwargs)
    tol = {"rtol": 1e-2, "atol": 1e-2} if weight.dtype != torch.float32 else {}
    torch.testing.assert_close(outv.cpu(), out, **tol)
    grad = torch.randn(out.shape).to(weight.dtype)
    out.backward(grad)
    outv.backward(grad.to("vulkan"))
    torch.testing.assert_close(wv.grad.cpu(), w.grad, **tol)
    if p is not None:
        torch.testing.assert_close(pv.grad.cpu(), p.grad, **tol)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("padding_idx", [None, 2])
@pytest.mark.parametrize("include_last_offset", [False, True])
def test_matches_cpu(mode, padding_idx, include_last_offset, no_fallback):
    offsets = torch.cat([OFFSETS, torch.tensor([10])]) if include_last_offset else OFFSETS
    both(torch.randn(10, 4), INDICES, offsets, mode=mode, padding_idx=padding_idx,
         include_last_offset=include_last_offset)


@pytest.mark.parametrize("padding_idx", [None, 0])
def test_per_sample_weights(padding_idx, no_fallback):
    both(torch.randn(10, 4), INDICES, OFFSETS, per_sample_weights=torch.randn(10), mode="sum", padding_idx=padding_idx)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_two_d_input_and_half(mode, no_fallback):
    both(torch.randn(10, 3), torch.tensor([[1, 2, 2], [0, 9, 4]]), None, mode=mode)
    both(torch.randn(10, 3).half(), INDICES, OFFSETS, mode=mode)


def test_max_ties_keep_the_first(no_fallback):
    weight = torch.ones(5, 2)  # every row ties: the first index of a bag wins the gradient
    both(weight, torch.tensor([3, 1, 4, 2]), torch.tensor([0, 2]), mode="max")


@pytest.mark.parametrize("mode", ["sum", "mean"])
def test_scale_grad_by_freq(mode, no_fallback):
    # Each row's gradient divided by its index's count, as embedding's (and
    # CUDA's). The CPU's embedding_bag divides some rows by another index's
    # count in torch 2.13 (pytorch/pytorch#190063), so the reference here is
    # the same bags built from F.embedding on the CPU.
    weight, indices, bags = torch.randn(10, 4), torch.tensor([1, 1, 3, 1, 5]), torch.tensor([0, 0, 0, 1, 1])
    w, wv = weight.clone().requires_grad_(), weight.to("vulkan").requires_grad_()
    rows = F.embedding(indices, w, scale_grad_by_freq=True)
    out = torch.zeros(2, 4).index_add(0, bags, rows)
    if mode == "mean":
        out = out / torch.tensor([[3.0], [2.0]])
    outv = F.embedding_bag(indices.to("vulkan"), wv, torch.tensor([0, 3], device="vulkan"), mode=mode,
                           scale_grad_by_freq=True)
    torch.testing.assert_close(outv.cpu(), out)
    grad = torch.randn(2, 4)
    out.backward(grad)
    outv.backward(grad.to("vulkan"))
    torch.testing.assert_close(wv.grad.cpu(), w.grad)


def test_errors(no_fallback):
    weight = torch.randn(10, 4, device="vulkan", requires_grad=True)
    indices, offsets = INDICES.to("vulkan"), OFFSETS.to("vulkan")
    with pytest.raises(RuntimeError, match="per_sample_weights is only supported for mode='sum'"):
        torch.embedding_bag(weight, indices, offsets, False, 1, False, torch.ones(10, device="vulkan"))
    with pytest.raises(NotImplementedError, match="sparse gradients"):
        F.embedding_bag(indices, weight, offsets, sparse=True).sum().backward()
    with pytest.raises(RuntimeError, match="Long or Int"):
        F.embedding_bag(indices.float(), weight, offsets)


@parametrize(["nn.functional.embedding_bag"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant, tolerances={torch.float16: (1e-2, 1e-2), torch.bfloat16: (5e-2, 5e-2)})


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_no_indices(mode, no_fallback):
    # Every bag empty: zeros, and no gradient.
    both(torch.randn(5, 3), torch.tensor([], dtype=torch.long), torch.tensor([0, 0]), mode=mode)
