"""Device discovery, selection (TORCHVULKAN_DEVICE) and capabilities."""

import pytest
import torch

import torchvulkan
from tests.helpers import run_python


def test_one_lavapipe_device():
    assert torchvulkan.device_count() == 1
    p = torch.vulkan.get_device_properties(0)
    assert p.device_type in ("cpu", "discrete", "integrated", "virtual", "other")


def test_capabilities_consistent():
    p = torch.vulkan.get_device_properties()
    assert p.max_allocation_size > 0
    assert p.total_memory == max(h["size"] for h in p.memory_heaps if h["device_local"])
    assert p.max_push_constants >= 128
    assert p.max_shared_memory >= 16384
    assert all(n >= 1 for n in p.max_workgroup_count)
    if p.float64:
        assert "copy_bits.8" in torchvulkan._C.kernel_names()


def test_kernels_embedded():
    names = torchvulkan._C.kernel_names()
    assert "copy_bits.4" in names
    assert any(n.startswith("fill.") for n in names)
    assert any(n.startswith("convert.") for n in names)
    assert isinstance(torchvulkan._C.compiler_features(), list)


def test_float64_supported_on_this_device():
    d = torch.tensor([1.0, 2.0], dtype=torch.float64, device="vulkan")
    assert d.dtype == torch.float64
    assert torch.equal(d.cpu(), torch.tensor([1.0, 2.0], dtype=torch.float64))


def test_status_string():
    assert isinstance(torchvulkan._C.status(), str)


def test_invalid_index_everywhere():
    for fn in (
        lambda: torch.vulkan.get_device_properties(5),
        lambda: torch.vulkan.memory_stats(5),
        lambda: torch.vulkan.synchronize(5),
        lambda: torch.vulkan.set_device(5),
        lambda: torch.ones(1, device="vulkan:5"),
    ):
        with pytest.raises(RuntimeError, match="1 Vulkan device"):
            fn()


def test_negative_index_rejected():
    with pytest.raises((RuntimeError, ValueError)):
        torch.vulkan.set_device(-2)


def test_select_device_by_name_and_index():
    code = """
        import torch, torchvulkan
        print(torchvulkan.device_count(), torch.vulkan.get_device_name())
        x = torch.arange(3.0).to("vulkan")
        print(x.cpu().tolist())
    """
    by_index = run_python(code, {"TORCHVULKAN_DEVICE": "0"})
    assert by_index.returncode == 0, by_index.stderr
    assert by_index.stdout.splitlines()[0].startswith("1 ")
    assert "[0.0, 1.0, 2.0]" in by_index.stdout
    name = torch.vulkan.get_device_name().split()[0].upper()
    by_name = run_python(code, {"TORCHVULKAN_DEVICE": name})
    assert by_name.returncode == 0, by_name.stderr
    assert by_name.stdout.splitlines()[0].startswith("1 ")


def test_select_unknown_device_gives_no_device():
    code = """
        import torch, torchvulkan
        print(torchvulkan.is_available(), torchvulkan.device_count())
        try:
            torch.empty(1, device="vulkan")
        except RuntimeError as e:
            print("ERR", e)
    """
    r = run_python(code, {"TORCHVULKAN_DEVICE": "no-such-gpu-xyz"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("False 0")
    assert "ERR" in r.stdout and "TORCHVULKAN_DEVICE=no-such-gpu-xyz" in r.stdout


def test_thread_local_current_device():
    import threading

    seen = []
    t = threading.Thread(target=lambda: seen.append(torch.vulkan.current_device()))
    t.start()
    t.join()
    assert seen == [0]
