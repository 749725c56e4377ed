"""native_dropout and native_dropout_backward (F.dropout in training), native
in strict mode: the share of zeros, the 1/(1-p) scale, and that backward
uses the forward's mask. Outputs compare exactly with the CPU's formula
input * mask * scale applied to the device's mask."""

import pytest
import torch
import torch.nn.functional as F

from tests.aten.ops.random.stats import N, assert_fraction
from tests.helpers import FLOAT_DTYPES, VK, assert_same_values

aten = torch.ops.aten


@pytest.fixture(autouse=True)
def _seeded():
    torch.manual_seed(7)


def nonzero_input(shape, dtype):
    return (torch.rand(shape) + 0.5).to(dtype)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("p", [0.1, 0.5, 0.8])
def test_forward(dtype, p, no_fallback):
    x = nonzero_input(N, dtype)
    out, mask = aten.native_dropout(x.to(VK), p, True)
    assert out.dtype == dtype and mask.dtype == torch.bool and out.device.type == "vulkan"
    out, mask = out.cpu(), mask.cpu()
    assert_fraction(~mask, p, "share of zeros")
    scale = 1 / (1 - p)
    assert_same_values(out, x.mul(mask).mul_(scale))  # the CPU's native_dropout on this mask
    assert torch.equal(out == 0, ~mask)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_functional_dropout_backward_uses_the_mask(dtype, no_fallback):
    p = 0.3
    x = nonzero_input((64, 50), dtype).to(VK).requires_grad_()
    y = F.dropout(x, p, training=True)
    grad = nonzero_input((64, 50), dtype)
    y.backward(grad.to(VK))
    kept = (y != 0).cpu()
    assert_fraction(~kept, p, "share of zeros")
    scale = 1 / (1 - p)
    assert_same_values(x.grad.cpu(), aten.native_dropout_backward(grad, kept, scale))
    assert_same_values(y.detach().cpu(), x.detach().cpu().mul(kept).mul_(scale))


def test_backward_kernel_matches_cpu(no_fallback):
    grad = torch.randn(1000)
    grad[::7] = float("nan")
    mask = torch.rand(1000) < 0.5
    for g, m in [(grad, mask), (grad.view(20, 50).t(), mask.view(20, 50).t())]:
        assert_same_values(aten.native_dropout_backward(g.to(VK), m.to(VK), 2.5).cpu(),
                           aten.native_dropout_backward(g, m, 2.5))


def test_backward_with_other_masks_keeps_cpu_semantics(no_fallback):
    # A float mask, broadcast: the CPU's composite, on the device.
    grad, mask = torch.randn(4, 5), (torch.rand(5) < 0.5).float()
    assert_same_values(aten.native_dropout_backward(grad.to(VK), mask.to(VK), 2.0).cpu(),
                       aten.native_dropout_backward(grad, mask, 2.0))


def test_non_contiguous_input(no_fallback):
    x = nonzero_input((300, 200), torch.float32).t()
    out, mask = aten.native_dropout(x.to(VK), 0.5, True)
    out, mask = out.cpu(), mask.cpu()
    assert out.shape == x.shape and mask.shape == x.shape
    assert_same_values(out, x.mul(mask).mul_(2.0))
    assert_fraction(~mask, 0.5)


def test_dropped_nan_stays_nan(no_fallback):
    out, mask = aten.native_dropout(torch.full((1000,), float("nan"), device=VK), 0.5, True)
    assert bool(out.cpu().isnan().all())
    assert_fraction(mask.cpu(), 0.5)


def test_p_zero_and_one(no_fallback):
    x = nonzero_input(100, torch.float32)
    out, mask = aten.native_dropout(x.to(VK), 0.0, True)
    assert torch.equal(out.cpu(), x) and bool(mask.cpu().all())
    out, mask = aten.native_dropout(x.to(VK), 1.0, True)
    assert torch.equal(out.cpu(), torch.zeros(100)) and not bool(mask.cpu().any())
    assert torch.equal(F.dropout(x.to(VK), 1.0).cpu(), torch.zeros(100))


def test_eval_is_identity(no_fallback):
    x = nonzero_input(100, torch.float16)
    out, mask = aten.native_dropout(x.to(VK), 0.5, False)
    assert torch.equal(out.cpu(), x) and bool(mask.cpu().all())
    assert torch.equal(F.dropout(x.to(VK), 0.5, training=False).cpu(), x)


def test_empty(no_fallback):
    out, mask = aten.native_dropout(torch.empty(0, 3, device=VK), 0.5, True)
    assert out.shape == (0, 3) and mask.shape == (0, 3) and mask.dtype == torch.bool


def test_feature_and_alpha_dropout_run_natively(no_fallback):
    x = nonzero_input((8, 64, 2, 2), torch.float32).to(VK)
    y = F.dropout2d(x, 0.5).cpu()
    channel_zero = (y == 0).flatten(2)
    assert bool((channel_zero.all(2) == channel_zero.any(2)).all())  # whole channels
    assert_fraction(channel_zero.all(2), 0.5)
    z = F.alpha_dropout(x, 0.5, training=True)
    assert z.shape == x.shape and z.device.type == "vulkan"
