"""Weight normalization's fused op on the vulkan device
(csrc/aten/ops/norm/weight_norm.cpp), in strict mode against the CPU: the
normalized weight and the gradients of v and g over the dimension kept."""

import pytest
import torch

from tests.helpers import assert_forward_backward_match


@pytest.mark.parametrize("dim,g_shape", [(0, (3, 1, 1)), (2, (1, 1, 5)), (-1, ())], ids=["first", "last", "whole"])
def test_matches_cpu(dim, g_shape, no_fallback):
    torch.manual_seed(0)
    v, g = torch.randn(3, 4, 5), torch.rand(g_shape) + 0.5
    assert_forward_backward_match(lambda v, g: torch._weight_norm(v, g, dim), v, g)


def test_module_trains(no_fallback):
    torch.manual_seed(0)
    layer = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(6, 3)).to("vulkan")
    opt = torch.optim.SGD(layer.parameters(), lr=0.1)
    x, y = torch.randn(16, 6, device="vulkan"), torch.randn(16, 3, device="vulkan")
    losses = []
    for _ in range(5):
        loss = torch.nn.functional.mse_loss(layer(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0]
