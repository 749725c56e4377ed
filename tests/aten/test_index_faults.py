"""Indices out of range on the vulkan device (shaders/common/fault.glsl,
csrc/aten/context.cpp's raise_faults): the kernel skips them and records a
fault, and the next synchronization (a copy to the host, item(),
torch.vulkan.synchronize()) raises IndexError, once; the process stays
usable. Negative indices count from the end where the CPU lets them
(advanced indexing, take, put_) and are out of range where it does not
(gather, scatter, index_select, embedding, nll_loss's targets)."""

import pytest
import torch
import torch.nn.functional as F

# op, whether a negative index counts from the end
OPS = {
    "indexing": (lambda v, i: v[i], True),
    "index_put_": (lambda v, i: v.index_put_((i,), torch.ones(i.shape, device=v.device), accumulate=True), True),
    "take": (lambda v, i: torch.take(v, i), True),
    "gather": (lambda v, i: torch.gather(v, 0, i), False),
    "scatter_": (lambda v, i: v.clone().scatter_(0, i, 1.0), False),
    "scatter_add_": (lambda v, i: v.clone().scatter_add_(0, i, torch.ones(i.shape, device=v.device)), False),
    "index_select": (lambda v, i: v.index_select(0, i), False),
    "embedding": (lambda v, i: F.embedding(i, v.view(-1, 1)), False),
    "nll_loss": (lambda v, i: F.nll_loss(v.expand(2, 6), i), False),
}


@pytest.mark.parametrize("op", OPS, ids=str)
def test_out_of_range_raises_at_the_next_synchronization(op, no_fallback):
    fn, from_end = OPS[op]
    bad = [[1, 6], [-7, 2]] if from_end else [[1, 6], [-1, 2]]
    for index in bad:
        result = fn(torch.arange(6.0, device="vulkan"), torch.tensor(index, device="vulkan"))
        with pytest.raises(IndexError, match="index out of range"):
            torch.vulkan.synchronize()
        torch.vulkan.synchronize()  # reported once
        assert result.device.type == "vulkan"
    # The device goes on working, and an index in range is no fault.
    good = [1, -1] if from_end else [1, 5]
    got = fn(torch.arange(6.0, device="vulkan"), torch.tensor(good, device="vulkan"))
    torch.testing.assert_close(got.cpu(), fn(torch.arange(6.0), torch.tensor(good)))


def test_reported_by_a_copy_to_the_host(no_fallback):
    v = torch.arange(4.0, device="vulkan")
    with pytest.raises(IndexError, match="index out of range"):
        v[torch.tensor([10], device="vulkan")].cpu()
    with pytest.raises(IndexError, match="index out of range"):
        torch.gather(v, 0, torch.tensor([-1], device="vulkan")).sum().item()
    assert v[torch.tensor([3], device="vulkan")].item() == 3.0
