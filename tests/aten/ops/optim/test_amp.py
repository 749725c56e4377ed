"""torch.amp.GradScaler's ops on the vulkan device, against the CPU's in
strict mode: unscaling with the inf/NaN check over mixed dtypes and layouts,
the scale update's three branches, and a scaled training loop whose
parameters, scale and skipped steps match the CPU's."""

import math

import pytest
import torch


def test_unscale_matches_cpu(no_fallback):
    g = torch.Generator().manual_seed(0)
    grads = [torch.randn(5, generator=g), torch.randn(3, 7, generator=g).half(),
             torch.randn(4, 6, generator=g).t(),  # not dense: unscaled through a copy
             torch.randn(0), torch.randn(1000, generator=g).bfloat16()]
    for found_value in (math.inf, -math.inf, math.nan, None):
        cpu = [t.clone() for t in grads]
        if found_value is not None:
            cpu[1][2, 3] = found_value
        vk = [t.to("vulkan") for t in cpu]
        results = []
        for device, ts in (("cpu", cpu), ("vulkan", vk)):
            found = torch.zeros(1, device=device)
            torch._amp_foreach_non_finite_check_and_unscale_(ts, found, torch.full((1,), 0.25, device=device))
            results.append(found.cpu())
        assert torch.equal(results[1], results[0]), found_value
        assert results[1].item() == (found_value is not None)
        for c, v in zip(cpu, vk):
            assert v.dtype == c.dtype and v.stride() == c.stride()
            torch.testing.assert_close(v.cpu(), c, equal_nan=True, rtol=0, atol=0)


def test_unscale_leaves_found_inf_set(no_fallback):
    found = torch.ones(1, device="vulkan")
    torch._amp_foreach_non_finite_check_and_unscale_([torch.ones(3, device="vulkan")], found,
                                                     torch.ones(1, device="vulkan"))
    assert found.item() == 1.0


@pytest.mark.parametrize("found_inf,tracker,expected_scale,expected_tracker", [
    (1.0, 1, 512.0, 0),     # inf or NaN: back off, restart the count
    (0.0, 0, 1024.0, 1),    # a successful step, interval not reached
    (0.0, 1, 2048.0, 0),    # the interval's last successful step: grow
])
def test_update_scale_branches(found_inf, tracker, expected_scale, expected_tracker, no_fallback):
    for device in ("cpu", "vulkan"):
        scale = torch.full((1,), 1024.0, device=device)
        growth = torch.full((1,), tracker, dtype=torch.int32, device=device)
        out = torch._amp_update_scale_(scale, growth, torch.full((1,), found_inf, device=device), 2.0, 0.5, 2)
        assert out is scale
        assert (scale.item(), growth.item()) == (expected_scale, expected_tracker), device


def test_update_scale_keeps_finite_scale(no_fallback):
    scale = torch.full((1,), 3e38, device="vulkan")
    growth = torch.ones(1, dtype=torch.int32, device="vulkan")
    torch._amp_update_scale_(scale, growth, torch.zeros(1, device="vulkan"), 2.0, 0.5, 2)
    assert scale.item() == pytest.approx(3e38) and growth.item() == 0


def test_bad_arguments_raise(no_fallback):
    grads = [torch.ones(2, device="vulkan")]
    with pytest.raises(RuntimeError, match="inv_scale must be a 1-element tensor"):
        torch._amp_foreach_non_finite_check_and_unscale_(grads, torch.zeros(1, device="vulkan"),
                                                         torch.ones(2, device="vulkan"))
    with pytest.raises(RuntimeError, match="found_inf must be a float tensor"):
        torch._amp_foreach_non_finite_check_and_unscale_(grads, torch.zeros(1, device="vulkan").double(),
                                                         torch.ones(1, device="vulkan"))
    with pytest.raises(RuntimeError, match="growth_tracker must be an int tensor"):
        torch._amp_update_scale_(torch.ones(1, device="vulkan"), torch.zeros(1, device="vulkan"),
                                 torch.zeros(1, device="vulkan"), 2.0, 0.5, 2)
    assert grads[0].cpu().tolist() == [1.0, 1.0]  # untouched, the device still usable


def scaled_training(device):
    torch.manual_seed(0)
    model = torch.nn.Linear(6, 3)
    data = [(torch.randn(8, 6), torch.randn(8, 3)) for _ in range(4)]
    data[1] = (data[1][0], torch.full((8, 3), math.inf))  # an inf loss: that step is skipped
    model = model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scaler = torch.amp.GradScaler(device, init_scale=2.0 ** 10, growth_interval=2)
    scales = []
    for x, y in data:
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        scales.append(scaler.get_scale())
    return [p.detach().cpu() for p in model.parameters()], scales


def test_grad_scaler_training_matches_cpu(no_fallback):
    cpu_params, cpu_scales = scaled_training("cpu")
    vk_params, vk_scales = scaled_training("vulkan")
    assert vk_scales == cpu_scales == [1024.0, 512.0, 512.0, 1024.0]
    for v, c in zip(vk_params, cpu_params):
        torch.testing.assert_close(v, c, rtol=1e-5, atol=1e-6)
