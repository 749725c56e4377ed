"""torch.autocast("vulkan") with ATen's cast policies, in strict mode: the
matrix products run in the autocast dtype, range-sensitive ops in float32,
mixed-input ops in the widest type, and a mixed-precision training step
with GradScaler stays on the device."""

import pytest
import torch


@pytest.fixture
def operands():
    g = torch.Generator().manual_seed(0)
    return torch.randn(8, 16, generator=g).to("vulkan"), torch.randn(16, 4, generator=g).to("vulkan")


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_products_take_the_autocast_dtype(operands, dtype, no_fallback):
    x, w = operands
    with torch.autocast("vulkan", dtype=dtype):
        outputs = [x @ w, torch.mm(x, w), torch.nn.functional.linear(x, w.t()),
                   torch.bmm(x[None], w[None]), torch.addmm(torch.zeros(4, device="vulkan"), x, w)]
    for out in outputs:
        assert out.dtype == dtype
    # The same as the product of the operands cast by hand.
    assert torch.equal(outputs[0].cpu(), (x.to(dtype) @ w.to(dtype)).cpu())


def test_default_dtype_is_float16(operands, no_fallback):
    x, w = operands
    assert torch.get_autocast_dtype("vulkan") == torch.float16
    with torch.autocast("vulkan"):
        assert (x @ w).dtype == torch.float16


def test_float32_and_promote_policies(operands, no_fallback):
    x, _ = operands
    h = x.half()
    with torch.autocast("vulkan"):
        assert torch.exp(h).dtype == torch.float32
        assert torch.softmax(h, 1).dtype == torch.float32
        assert torch.nn.functional.layer_norm(h, (16,)).dtype == torch.float32
        assert torch.sum(h).dtype == torch.float32
        assert torch.addcmul(x, h, h).dtype == torch.float32
        assert (h + h).dtype == torch.float16  # not listed: runs as given
    torch.testing.assert_close(torch.exp(h.float()).cpu(), torch.exp(h.cpu().float()))


def test_disabled_and_nested(operands, no_fallback):
    x, w = operands
    with torch.autocast("vulkan"):
        with torch.autocast("vulkan", enabled=False):
            assert (x @ w).dtype == torch.float32
        assert (x @ w).dtype == torch.float16
    assert (x @ w).dtype == torch.float32


def test_binary_cross_entropy_is_refused(no_fallback):
    p = torch.rand(4, device="vulkan")
    with torch.autocast("vulkan"), pytest.raises(RuntimeError, match="unsafe to autocast"):
        torch.nn.functional.binary_cross_entropy(p, p)
    with torch.autocast("vulkan"):
        assert torch.nn.functional.binary_cross_entropy_with_logits(p.half(), p).dtype == torch.float32


def test_mixed_precision_training_step(no_fallback):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to("vulkan")
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    scaler = torch.amp.GradScaler("vulkan")
    x, y = torch.randn(64, 16, device="vulkan"), torch.randint(0, 4, (64,), device="vulkan")
    losses = []
    for _ in range(20):
        opt.zero_grad()
        with torch.autocast("vulkan"):
            logits = model(x)
            assert logits.dtype == torch.float16
            loss = torch.nn.functional.cross_entropy(logits, y)
        assert loss.dtype == torch.float32
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        losses.append(loss.item())
    assert all(p.dtype == torch.float32 for p in model.parameters())
    assert losses[-1] < 0.7 * losses[0]
