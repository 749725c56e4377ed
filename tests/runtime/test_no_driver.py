"""Behaviour without a Vulkan driver: import works, the device is simply absent."""

import pytest

from tests.helpers import run_python

NO_DRIVER = {"VK_ICD_FILENAMES": "/nonexistent.json", "VK_DRIVER_FILES": "/nonexistent.json"}


@pytest.mark.no_device
def test_import_without_driver():
    code = """
        import torch
        import torchvulkan
        print("available", torchvulkan.is_available())
        print("count", torchvulkan.device_count())
        print("torch.vulkan", torch.vulkan.is_available(), torch.vulkan.device_count())
        print("is_vulkan_available", torch.is_vulkan_available())
        print("version", type(torchvulkan.__version__).__name__)
        try:
            torch.empty(1, device="vulkan")
            print("NO ERROR")
        except RuntimeError as e:
            print("error:", str(e).replace(chr(10), " "))
        try:
            torch.zeros(2).to("vulkan")
            print("NO ERROR")
        except RuntimeError as e:
            print("error2:", str(e).replace(chr(10), " "))
        print("cpu ok", (torch.ones(2) + 1).tolist())
    """
    r = run_python(code, NO_DRIVER)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "available False" in out
    assert "count 0" in out
    assert "torch.vulkan False 0" in out
    assert "is_vulkan_available False" in out
    assert "version str" in out
    assert "NO ERROR" not in out
    error_lines = [line for line in out.splitlines() if line.startswith("error")]
    assert len(error_lines) == 2
    for line in error_lines:
        assert "no Vulkan driver" in line
    assert "cpu ok [2.0, 2.0]" in out


@pytest.mark.no_device
def test_device_queries_without_driver_raise_cleanly():
    code = """
        import torch, torchvulkan
        for name in ("get_device_properties", "memory_stats", "synchronize", "set_device"):
            try:
                fn = getattr(torch.vulkan, name)
                fn(0) if name == "set_device" else fn()
                print(name, "ok")
            except RuntimeError as e:
                print(name, "RuntimeError", "no Vulkan driver" in str(e))
        torchvulkan.empty_cache()
        print("fallback", torchvulkan.fallback_counts())
    """
    r = run_python(code, NO_DRIVER)
    assert r.returncode == 0, r.stderr
    for name in ("get_device_properties", "memory_stats", "synchronize", "set_device"):
        assert f"{name} RuntimeError True" in r.stdout, r.stdout
    assert "fallback {}" in r.stdout
