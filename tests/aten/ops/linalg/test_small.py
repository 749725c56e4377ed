"""trace and the cross product on the vulkan device
(csrc/aten/ops/linalg/small.cpp), in strict mode against the CPU."""

import pytest
import torch

from tests.opinfo import check_op, parametrize


def test_trace_and_cross(no_fallback):
    torch.manual_seed(0)
    m = torch.randn(4, 6)
    torch.testing.assert_close(m.to("vulkan").trace().cpu(), m.trace())
    torch.testing.assert_close(m.long().to("vulkan").trace().cpu(), m.long().trace())
    # The number in the message is formatted by this package's own
    # TORCH_CHECK: a second libstdc++ in the module lost it (or crashed).
    with pytest.raises(RuntimeError, match="expected a matrix, but got tensor with dim 1"):
        torch.ones(3, device="vulkan").trace()
    a, b = torch.randn(3, 5), torch.randn(3, 1)  # broadcast, the vectors along dim 0
    torch.testing.assert_close(torch.linalg.cross(a.to("vulkan"), b.to("vulkan"), dim=0).cpu(),
                               torch.linalg.cross(a, b, dim=0))


@parametrize(["trace", "linalg.cross", "cross"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant, tolerances={torch.float16: (1e-2, 1e-2), torch.bfloat16: (5e-2, 5e-2)})
