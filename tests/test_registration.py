"""The "vulkan" device name: device strings, tensor/module methods, legacy names."""

import pytest
import torch

import torchvulkan  # noqa: F401


def test_device_strings():
    d = torch.device("vulkan")
    assert d.type == "vulkan" and d.index is None
    d0 = torch.device("vulkan:0")
    assert d0.type == "vulkan" and d0.index == 0
    assert torch.device("vulkan", 0) == d0
    assert str(d0) == "vulkan:0"


def test_privateuse1_is_renamed():
    assert torch._C._get_privateuse1_backend_name() == "vulkan"


def test_to_vulkan_and_back():
    x = torch.arange(5, dtype=torch.float32)
    for target in ("vulkan", "vulkan:0", torch.device("vulkan"), torch.device("vulkan", 0)):
        y = x.to(target)
        assert y.device == torch.device("vulkan", 0)
        assert y.device.type == "vulkan"
        assert torch.equal(y.cpu(), x)


def test_is_vulkan_property():
    x = torch.ones(3)
    assert x.is_vulkan is False
    y = x.to("vulkan")
    assert y.is_vulkan is True
    assert y.cpu().is_vulkan is False


def test_tensor_vulkan_method():
    x = torch.tensor([1, 2, 3], dtype=torch.int32)
    for y in (x.vulkan(), x.vulkan(0), x.vulkan("vulkan:0")):
        assert y.is_vulkan and y.device == torch.device("vulkan:0")
        assert y.dtype == torch.int32
        assert torch.equal(y.cpu(), x)
    # Already on the device: no copy.
    y = x.vulkan()
    assert y.vulkan() is y


@pytest.mark.parametrize(
    "make",
    [
        lambda **kw: torch.empty(3, 2, **kw).fill_(0),
        lambda **kw: torch.zeros(3, 2, **kw),
        lambda **kw: torch.ones(3, 2, **kw),
        lambda **kw: torch.full((3, 2), 7.5, **kw),
        lambda **kw: torch.arange(6, **kw).reshape(3, 2),
    ],
    ids=["empty", "zeros", "ones", "full", "arange"],
)
def test_factories_device_kwarg(make):
    expected = make()
    for device in ("vulkan", "vulkan:0", torch.device("vulkan")):
        # Made on the CPU then moved, and made directly on the device.
        via_cpu = make().to(device)
        direct = make(device=device)
        for t in (via_cpu, direct):
            assert t.device == torch.device("vulkan:0")
            assert t.dtype == expected.dtype
            assert torch.equal(t.cpu(), expected)


def test_module_to_vulkan():
    torch.manual_seed(0)
    m = torch.nn.Linear(4, 3)
    ref = {k: v.clone() for k, v in m.state_dict().items()}
    m.to("vulkan")
    for name, p in m.named_parameters():
        assert p.device.type == "vulkan", name
        assert isinstance(p, torch.nn.Parameter)
        assert torch.equal(p.detach().cpu(), ref[name])


def test_module_vulkan_method():
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
    ref = {k: v.clone() for k, v in m.state_dict().items()}
    assert m.vulkan() is m
    for name, t in m.state_dict().items():
        assert t.device.type == "vulkan", name
        assert torch.equal(t.cpu(), ref[name])
    m.cpu()
    assert all(t.device.type == "cpu" for t in m.state_dict().values())


def test_storage_methods():
    x = torch.arange(4, dtype=torch.float32).to("vulkan")
    s = x.untyped_storage()
    assert s.device.type == "vulkan"
    assert s.nbytes() == 16
    assert hasattr(torch.UntypedStorage, "is_vulkan")
    assert s.is_vulkan


def test_is_vulkan_available():
    assert torch.is_vulkan_available() is True


@pytest.mark.parametrize("spec", ["vulkan:7", torch.device("vulkan", 7)])
def test_invalid_index_raises_clearly(spec):
    with pytest.raises(RuntimeError, match="1 Vulkan device"):
        torch.zeros(2).to(spec)
    with pytest.raises(RuntimeError, match="1 Vulkan device"):
        torch.empty(2, device=spec)
