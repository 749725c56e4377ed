"""A host tensor among a vulkan op's operands is refused with CUDA's message
(csrc/aten/context.cpp: every tensor a kernel touches passes through
address_of or span_of) and the device stays usable. Before the check the
norms read host weights as device addresses, and nll_loss with a host
target corrupted the heap on lavapipe."""

import pytest
import torch
import torch.nn.functional as F

X = lambda: torch.randn(4, 8, device="vulkan")  # noqa: E731

CASES = {
    "layer_norm": lambda x: F.layer_norm(x, (8,), torch.randn(8), torch.randn(8)),
    "rms_norm": lambda x: F.rms_norm(x, (8,), torch.randn(8)),
    "group_norm": lambda x: F.group_norm(x.view(4, 8, 1), 2, torch.randn(8), torch.randn(8)),
    "batch_norm": lambda x: F.batch_norm(x, torch.zeros(8), torch.ones(8), training=False),
    "nll_loss target": lambda x: F.nll_loss(x.log_softmax(1), torch.tensor([1, 2, 3, 0])),
    "nll_loss weight": lambda x: F.nll_loss(x.log_softmax(1), torch.tensor([1, 2, 3, 0], device="vulkan"),
                                            weight=torch.ones(8)),
    "mm": lambda x: x @ torch.randn(8, 3),
    "addmm bias": lambda x: torch.addmm(torch.randn(3), x, torch.randn(8, 3, device="vulkan")),
    "embedding": lambda x: F.embedding(torch.tensor([1, 2]), x),
    "index_select": lambda x: x.index_select(0, torch.tensor([1, 2])),
    "conv1d": lambda x: F.conv1d(x.view(1, 4, 8), torch.randn(2, 4, 3)),
}


@pytest.mark.parametrize("case", CASES, ids=str)
def test_host_operand_is_refused(case, no_fallback):
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        CASES[case](X())
        torch.vulkan.synchronize()
    x = X()
    torch.testing.assert_close((x * 2).cpu(), x.cpu() * 2)


def test_host_scalar_tensor_is_still_a_scalar(no_fallback):
    x = X()
    torch.testing.assert_close((x + torch.tensor(2.0)).cpu(), x.cpu() + 2)
