"""repeat_interleave with a tensor of repeats on the vulkan device
(csrc/aten/ops/index/repeat_interleave.cpp), in strict mode against the
CPU: along dims and flattened, zero repeats, int32 repeats, output_size,
gradients, OpInfo samples and bad repeats."""

import pytest
import torch

from tests.helpers import assert_forward_backward_match
from tests.opinfo import check_op, parametrize


@pytest.mark.parametrize("dim", [None, 0, 1, -1])
def test_matches_cpu(dim, no_fallback):
    torch.manual_seed(0)
    x = torch.randn(4, 3, 5)
    count = x.numel() if dim is None else x.size(dim)
    repeats = torch.randint(0, 4, (count,))
    repeats[0] = 0
    assert_forward_backward_match(lambda t: torch.repeat_interleave(t, repeats.to(t.device), dim=dim), x)


def test_indices_int32_and_output_size(no_fallback):
    repeats = torch.tensor([2, 0, 3, 1], dtype=torch.int32)
    got = torch.repeat_interleave(repeats.to("vulkan"))
    assert got.dtype == torch.int32 and torch.equal(got.cpu(), torch.repeat_interleave(repeats))
    got = torch.repeat_interleave(repeats.long().to("vulkan"), output_size=6)
    assert torch.equal(got.cpu(), torch.repeat_interleave(repeats.long()))
    assert torch.repeat_interleave(torch.tensor([], dtype=torch.long, device="vulkan")).numel() == 0


def test_bad_repeats(no_fallback):
    with pytest.raises(RuntimeError, match="repeats can not be negative"):
        torch.repeat_interleave(torch.tensor([1, -1], device="vulkan"))
    with pytest.raises(RuntimeError, match="only accept 1D vector"):
        torch.repeat_interleave(torch.ones(2, 2, dtype=torch.long, device="vulkan"))


@parametrize(["repeat_interleave"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
