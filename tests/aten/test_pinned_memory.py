"""Pinned host memory (the PrivateUse1 hooks) and non-blocking copies."""

import pytest
import torch

import torchvulkan


def test_pin_memory_is_pinned():
    acc = torch.accelerator.current_accelerator()
    assert acc is not None and acc.type == "vulkan"
    x = torch.randn(64)
    assert x.is_pinned() is False
    p = x.pin_memory()
    assert p.is_pinned() is True
    assert p.device.type == "cpu"
    assert torch.equal(p, x)
    assert p.pin_memory() is p


# ATen's empty(pin_memory=True) asks CUDA's allocator first whenever CUDA is
# present (GetCPUAllocatorMaybePinned), while is_pinned() asks the current
# accelerator, vulkan: in a CUDA build on a CUDA machine the two disagree.
@pytest.mark.skipif(torch.cuda.is_available(), reason="CUDA pins torch.empty(pin_memory=True)")
def test_empty_pin_memory_kwarg():
    p = torch.empty(10, pin_memory=True)
    assert p.is_pinned()
    p.copy_(torch.arange(10.0))
    assert torch.equal(p, torch.arange(10.0))


def test_pinned_view_is_pinned():
    p = torch.arange(16.0).pin_memory()
    assert p[3:].is_pinned()


def test_host_memory_stats_track_pinned():
    before = torch.vulkan.host_memory_stats()
    p = torch.empty(1000).pin_memory()
    during = torch.vulkan.host_memory_stats()
    assert during["allocated_bytes"] >= before["allocated_bytes"] + 4000
    assert during["reserved_bytes"] >= during["allocated_bytes"]
    del p
    assert torch.vulkan.host_memory_stats()["allocated_bytes"] == before["allocated_bytes"]


def test_vulkan_tensor_cannot_be_pinned():
    with pytest.raises(RuntimeError):
        torch.empty(2, device="vulkan", pin_memory=True)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int16, torch.uint8], ids=str)
def test_non_blocking_pinned_to_device(dtype):
    src = (torch.arange(64) * 3 - 50).to(dtype).pin_memory()
    d = src.to("vulkan", non_blocking=True)
    torchvulkan.synchronize()
    assert torch.equal(d.cpu(), src)
    e = torch.zeros(64, dtype=dtype, device="vulkan")
    e.copy_(src, non_blocking=True)
    torchvulkan.synchronize()
    assert torch.equal(e.cpu(), src)


def test_non_blocking_device_to_pinned():
    c = torch.randn(64)
    d = c.to("vulkan")
    dst = torch.empty(64).pin_memory()
    dst.copy_(d, non_blocking=True)
    torchvulkan.synchronize()
    assert torch.equal(dst, c)
    host = d.to("cpu", non_blocking=True)
    torchvulkan.synchronize()
    assert torch.equal(host, c)


def test_non_blocking_device_to_pinned_after_queued_work():
    d = torch.zeros(128, device="vulkan")
    dst = torch.empty(128).pin_memory()
    for i in range(20):
        d.fill_(float(i))
    dst.copy_(d, non_blocking=True)
    torch.vulkan.synchronize()
    assert torch.equal(dst, torch.full((128,), 19.0))


def test_non_blocking_from_pageable_is_safe_to_overwrite():
    src = torch.arange(256, dtype=torch.float32)
    d = src.to("vulkan", non_blocking=True)
    src.fill_(-1)  # pageable memory: the copy must already have taken the values
    assert torch.equal(d.cpu(), torch.arange(256, dtype=torch.float32))


def test_pinned_round_trip_many_times():
    p = torch.empty(32).pin_memory()
    d = torch.empty(32, device="vulkan")
    for i in range(30):
        p.fill_(float(i))
        d.copy_(p, non_blocking=True)
        torchvulkan.synchronize()  # p is rewritten next iteration
        assert d[5].item() == float(i)


def test_pinned_reuse_after_free():
    for i in range(5):
        p = torch.full((100,), float(i)).pin_memory()
        d = p.to("vulkan", non_blocking=True)
        torchvulkan.synchronize()
        del p
        assert torch.equal(d.cpu(), torch.full((100,), float(i)))


def test_freed_pinned_block_not_reused_while_copy_in_flight():
    for i in range(10):
        d = torch.zeros(4096, device="vulkan")
        for _ in range(20):
            d.fill_(0)  # queue work ahead of the upload
        p = torch.full((4096,), float(i + 1)).pin_memory()
        d.copy_(p, non_blocking=True)
        del p  # the block may be recycled only after the copy ran
        q = torch.full((4096,), -1.0).pin_memory()
        torchvulkan.synchronize()
        assert torch.equal(d.cpu(), torch.full((4096,), float(i + 1)))
        del q


def test_non_blocking_into_non_contiguous_pinned():
    c = torch.arange(20, dtype=torch.float32)
    d = c.to("vulkan")
    buf = torch.zeros(40).pin_memory()
    buf[::2].copy_(d, non_blocking=True)
    torchvulkan.synchronize()
    expected = torch.zeros(40)
    expected[::2] = c
    assert torch.equal(buf, expected)
