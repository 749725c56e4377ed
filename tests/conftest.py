import warnings

import pytest
import torch

import torchvulkan


def pytest_configure(config):
    config.addinivalue_line("markers", "no_device: the test does not need a working Vulkan device")


@pytest.fixture(autouse=True)
def _require_device(request):
    if request.node.get_closest_marker("no_device") is None and not torchvulkan.is_available():
        pytest.skip("no Vulkan device")


@pytest.fixture
def no_fallback(monkeypatch):
    """Makes any CPU fallback an error for the duration of the test."""
    monkeypatch.setenv("TORCHVULKAN_STRICT", "1")
    yield


@pytest.fixture
def quiet_fallback():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="torchvulkan: .* has no native Vulkan kernel")
        yield


def pytest_sessionfinish(session, exitstatus):
    """Under TORCHVULKAN_VALIDATION=1 the run fails if the Khronos layer reported anything."""
    if torchvulkan._C.validation_enabled():
        messages = torchvulkan._C.validation_messages()
        print(f"\nvalidation layer: {messages} message(s)")
        if messages and session.exitstatus == 0:
            session.exitstatus = 1
