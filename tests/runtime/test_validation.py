"""A small workload under the Khronos validation layer reports no errors."""

import pathlib

import pytest

from tests.helpers import run_python

WORKLOAD = r"""
import warnings
import torch, torchvulkan
from torchvulkan import _C

warnings.simplefilter("ignore")
assert _C.validation_enabled(), "validation layer not enabled"

# uploads (inline and staged), downloads, every dtype
for dt in (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
           torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64):
    c = (torch.arange(37) % 5).to(dt)
    assert torch.equal(c.to("vulkan").cpu(), c), dt
big = torch.arange(40000, dtype=torch.float32)
assert torch.equal(big.to("vulkan").cpu(), big)

# conversions, strided copies, fills on views
x = torch.arange(24, dtype=torch.float32).reshape(4, 6).to("vulkan")
for dt in (torch.int8, torch.float16, torch.float64, torch.bool):
    assert torch.equal(x.t().to(dt).cpu(), x.cpu().t().to(dt))
d = torch.zeros(4, 12, device="vulkan")
d[:, ::2].copy_(x)
d[1:, 1::2].fill_(-1)
d.diagonal().zero_()
e = torch.zeros(4, 12); e[:, ::2] = x.cpu(); e[1:, 1::2] = -1; e.diagonal().zero_()
assert torch.equal(d.cpu(), e)

# resize, set_, item, pinned non-blocking copies, fallback, random
r = torch.arange(5.0).to("vulkan"); r.resize_(100); r[5:].fill_(0)
assert r[4].item() == 4.0
s = torch.empty(0, device="vulkan").set_(x.untyped_storage())
assert s.numel() == 24
p = torch.arange(64.0).pin_memory()
q = p.to("vulkan", non_blocking=True)
out = torch.empty(64).pin_memory()
out.copy_(q, non_blocking=True)
torchvulkan.synchronize()
assert torch.equal(out, p)
assert torch.equal(torch.add(q, q).cpu(), p * 2)
torch.vulkan.manual_seed(0)
torch.randn(10, device="vulkan").cpu()
for i in range(100):
    q.fill_(i)
assert q[0].item() == 99.0

# timing events: query pools, resets, timestamps, reused slots
events = [torch.Event(device="vulkan", enable_timing=True) for _ in range(70)]
for _ in range(2):
    for event in events:
        q.add_(1)
        event.record()
    events[-1].synchronize()
    assert events[0].elapsed_time(events[-1]) >= 0
del x, d, r, s, q
torchvulkan.empty_cache()
torchvulkan.synchronize()
print("enabled", _C.validation_enabled())
print("messages", _C.validation_messages())
"""


def _validation_layer_installed():
    roots = ["/usr/share/vulkan/explicit_layer.d", "/etc/vulkan/explicit_layer.d", "/usr/local/share/vulkan/explicit_layer.d"]
    return any(pathlib.Path(r, "VkLayer_khronos_validation.json").exists() for r in roots)


def test_workload_under_validation_is_clean():
    if not _validation_layer_installed():
        pytest.skip("Khronos validation layer not installed")
    r = run_python(WORKLOAD, {"TORCHVULKAN_VALIDATION": "1"}, timeout=300)
    assert r.returncode == 0, r.stderr[-4000:]
    assert "enabled True" in r.stdout
    assert "messages 0" in r.stdout, r.stderr[-4000:]
    assert "[torchvulkan validation]" not in r.stderr, r.stderr[-4000:]


def test_validation_off_by_default():
    r = run_python("import torchvulkan; print(torchvulkan._C.validation_enabled())", {"TORCHVULKAN_VALIDATION": "0"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"
