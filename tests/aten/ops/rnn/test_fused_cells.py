"""nn.LSTM / nn.GRU and their cells on the vulkan device, through the fused
cells ATen calls on every non-CPU device (csrc/aten/ops/rnn/fused_cells.cpp),
in strict mode against the CPU: outputs, final states and every gradient."""

import copy

import pytest
import torch

MODULES = [
    (torch.nn.LSTM, dict(num_layers=2, batch_first=True)),
    (torch.nn.LSTM, dict(bias=False, bidirectional=True)),
    (torch.nn.GRU, dict(num_layers=2)),
    (torch.nn.GRU, dict(bias=False, bidirectional=True, batch_first=True)),
]


@pytest.mark.parametrize("cls,options", MODULES, ids=lambda v: v.__name__ if isinstance(v, type) else str(v))
def test_matches_cpu(cls, options, no_fallback):
    torch.manual_seed(0)
    cpu = cls(4, 5, **options)
    vk = copy.deepcopy(cpu).to("vulkan")
    x = torch.randn(3, 2, 4, requires_grad=True)
    xv = x.detach().to("vulkan").requires_grad_()
    out, state = cpu(x)
    outv, statev = vk(xv)
    states = state if isinstance(state, tuple) else (state,)
    statesv = statev if isinstance(statev, tuple) else (statev,)
    torch.testing.assert_close(outv.cpu(), out)
    for s, sv in zip(states, statesv):
        torch.testing.assert_close(sv.cpu(), s)
    # The final states feed the loss too: the cells get gradients for hy and
    # (LSTM) cy directly, not only through the next step.
    grad = torch.randn(out.shape)
    (out * grad).sum().backward(retain_graph=True)
    sum(s.sum() for s in states).backward()
    (outv * grad.to("vulkan")).sum().backward(retain_graph=True)
    sum(s.sum() for s in statesv).backward()
    torch.testing.assert_close(xv.grad.cpu(), x.grad)
    for p, pv in zip(cpu.parameters(), vk.parameters()):
        torch.testing.assert_close(pv.grad.cpu(), p.grad)


@pytest.mark.parametrize("cls", [torch.nn.LSTMCell, torch.nn.GRUCell], ids=lambda c: c.__name__)
def test_cells(cls, no_fallback):
    torch.manual_seed(0)
    cpu = cls(4, 6)
    vk = copy.deepcopy(cpu).to("vulkan")
    x = torch.randn(3, 4)
    out, outv = cpu(x), vk(x.to("vulkan"))
    for o, ov in zip(out if isinstance(out, tuple) else (out,), outv if isinstance(outv, tuple) else (outv,)):
        torch.testing.assert_close(ov.cpu(), o)
