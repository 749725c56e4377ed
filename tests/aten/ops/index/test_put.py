"""put_ on the vulkan device (csrc/aten/ops/index/put.cpp), in strict mode
against the CPU: contiguous and strided self, negative indices, accumulate
with repeats, OpInfo samples and bad arguments."""

import pytest
import torch

from tests.opinfo import check_op, parametrize


@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("strided", [False, True])
def test_matches_cpu(accumulate, strided, no_fallback):
    torch.manual_seed(0)
    self = torch.randn(6, 5)
    # Without accumulate, repeated indices leave the winner undefined (as on
    # CUDA), so those indices are distinct: 0, 29, 7, 28, 12, 1.
    index = torch.tensor([[0, -1, 7], [29, 7, -30]]) if accumulate else torch.tensor([[0, -1, 7], [28, 12, -29]])
    source = torch.randn(2, 3)
    v = self.to("vulkan")
    if strided:
        self, v = self.t(), v.t()
    expected = self.clone().put_(index, source, accumulate)
    got = v.put_(index.to("vulkan"), source.to("vulkan"), accumulate)
    assert got is v
    torch.testing.assert_close(v.cpu(), expected)


def test_bad_arguments(no_fallback):
    v = torch.zeros(4, device="vulkan")
    with pytest.raises(IndexError, match="Expected a long tensor for index"):
        v.put_(torch.tensor([1], dtype=torch.int32, device="vulkan"), torch.ones(1, device="vulkan"))
    with pytest.raises(RuntimeError, match="same number of elements"):
        v.put_(torch.tensor([1, 2], device="vulkan"), torch.ones(1, device="vulkan"))
    with pytest.raises(RuntimeError, match="same dtype"):
        v.put_(torch.tensor([1], device="vulkan"), torch.ones(1, dtype=torch.float64, device="vulkan"))


@parametrize(["put", "take"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
