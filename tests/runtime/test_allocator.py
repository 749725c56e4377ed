"""The caching device allocator: statistics, reuse, empty_cache, out-of-memory."""

import gc

import pytest
import torch

import torchvulkan
from tests.helpers import run_python


def _settle():
    gc.collect()
    torchvulkan.synchronize()


def test_memory_allocated_tracks_live_tensors():
    _settle()
    base = torch.vulkan.memory_allocated()
    a = torch.empty(1000, device="vulkan")  # 4000 bytes -> 4096
    assert torch.vulkan.memory_allocated() == base + 4096
    b = torch.empty(10, dtype=torch.uint8, device="vulkan")  # rounded up to 512
    assert torch.vulkan.memory_allocated() == base + 4096 + 512
    c = torch.empty(128, device="vulkan")  # exactly 512
    assert torch.vulkan.memory_allocated() == base + 4096 + 1024
    del a
    assert torch.vulkan.memory_allocated() == base + 1024
    del b, c
    assert torch.vulkan.memory_allocated() == base


def test_views_do_not_allocate():
    _settle()
    a = torch.zeros(256, device="vulkan")
    after = torch.vulkan.memory_allocated()
    v = a[10:].view(-1, 2).t()
    assert torch.vulkan.memory_allocated() == after
    del a
    assert torch.vulkan.memory_allocated() == after  # the view keeps the storage alive
    del v
    assert torch.vulkan.memory_allocated() == after - 1024


def test_requested_bytes_are_exact():
    _settle()
    before = torch.vulkan.memory_stats()["requested_bytes.all.current"]
    a = torch.empty(13, dtype=torch.uint8, device="vulkan")
    assert torch.vulkan.memory_stats()["requested_bytes.all.current"] == before + 13
    del a


def test_repeated_alloc_free_does_not_grow_reserved():
    _settle()
    for size in (100, 5000, 300_000):
        x = torch.empty(size, device="vulkan")
        x.fill_(1)
        del x
        reserved = torch.vulkan.memory_reserved()
        device_allocs = torch.vulkan.memory_stats()["num_device_alloc"]
        for i in range(50):
            x = torch.empty(size, device="vulkan")
            x.fill_(i)
            del x
        assert torch.vulkan.memory_reserved() == reserved
        assert torch.vulkan.memory_stats()["num_device_alloc"] == device_allocs


def test_freed_block_is_reused():
    _settle()
    a = torch.empty(1000, device="vulkan")
    ptr = a.data_ptr()
    del a
    b = torch.empty(1000, device="vulkan")
    assert b.data_ptr() == ptr


def test_reuse_waits_for_queued_reads():
    # y's copy reads x; x's block is then handed to z and overwritten. The
    # queue must order the overwrite after the read.
    reused = 0
    for _ in range(20):
        x = torch.arange(4096, dtype=torch.float32).to("vulkan")
        y = torch.empty(4096, device="vulkan")
        y.copy_(x)
        ptr = x.data_ptr()
        del x
        z = torch.empty(4096, device="vulkan")
        z.fill_(-5)
        reused += z.data_ptr() == ptr
        assert torch.equal(y.cpu(), torch.arange(4096, dtype=torch.float32))
        assert torch.equal(z.cpu(), torch.full((4096,), -5.0))
    assert reused > 0


def test_small_and_large_pools():
    _settle()
    stats = torch.vulkan.memory_stats()
    small, large = stats["allocated_bytes.small_pool.current"], stats["allocated_bytes.large_pool.current"]
    a = torch.empty(1000, device="vulkan")
    b = torch.empty(3 << 20, dtype=torch.uint8, device="vulkan")  # 3 MiB: large pool
    stats = torch.vulkan.memory_stats()
    assert stats["allocated_bytes.small_pool.current"] == small + 4096
    assert stats["allocated_bytes.large_pool.current"] == large + (3 << 20)
    assert stats["allocated_bytes.all.current"] == (
        stats["allocated_bytes.small_pool.current"] + stats["allocated_bytes.large_pool.current"]
    )
    assert stats["reserved_bytes.all.current"] >= stats["allocated_bytes.all.current"]
    del a, b


def test_peak_and_reset_peak():
    _settle()
    base = torch.vulkan.memory_allocated()
    torch.vulkan.reset_peak_memory_stats()
    assert torch.vulkan.max_memory_allocated() == base
    big = torch.empty(1 << 20, dtype=torch.uint8, device="vulkan")
    assert torch.vulkan.max_memory_allocated() == base + (1 << 20)
    del big
    assert torch.vulkan.memory_allocated() == base
    assert torch.vulkan.max_memory_allocated() == base + (1 << 20)
    assert torch.vulkan.max_memory_reserved() >= torch.vulkan.memory_reserved()
    torch.vulkan.reset_peak_memory_stats()
    assert torch.vulkan.max_memory_allocated() == base
    assert torch.vulkan.max_memory_reserved() == torch.vulkan.memory_reserved()


def test_reset_accumulated_stats():
    x = torch.empty(10, device="vulkan")
    del x
    torch.vulkan.reset_accumulated_memory_stats()
    stats = torch.vulkan.memory_stats()
    assert stats["allocation.all.allocated"] == 0 and stats["allocation.all.freed"] == 0
    x = torch.empty(10, device="vulkan")
    assert torch.vulkan.memory_stats()["allocation.all.allocated"] == 1
    del x
    assert torch.vulkan.memory_stats()["allocation.all.freed"] == 1


def test_empty_cache_lowers_reserved():
    _settle()
    big = torch.empty(12 << 20, dtype=torch.uint8, device="vulkan")  # its own segment
    big.fill_(1)
    reserved = torch.vulkan.memory_reserved()
    del big
    assert torch.vulkan.memory_reserved() == reserved  # cached
    torchvulkan.empty_cache()
    assert torch.vulkan.memory_reserved() <= reserved - (12 << 20)
    torch.vulkan.empty_cache()


def test_empty_cache_to_zero_when_nothing_alive():
    code = """
        import torch, torchvulkan
        xs = [torch.ones(n, device="vulkan") for n in (10, 1000, 300000, 3000000)]
        ys = [x * 1 for x in xs[:2]]
        torchvulkan.synchronize()
        print("reserved_live", torch.vulkan.memory_reserved())
        del xs, ys
        print("allocated", torch.vulkan.memory_allocated())
        print("cached", torch.vulkan.memory_reserved())
        torchvulkan.empty_cache()
        print("reserved", torch.vulkan.memory_reserved())
        x = torch.arange(5.0).to("vulkan")
        print("after", x.cpu().tolist())
    """
    r = run_python(code)
    assert r.returncode == 0, r.stderr
    lines = dict(line.split(" ", 1) for line in r.stdout.splitlines())
    assert int(lines["reserved_live"]) > 0
    assert lines["allocated"] == "0"
    assert int(lines["cached"]) > 0
    assert lines["reserved"] == "0"
    assert lines["after"] == "[0.0, 1.0, 2.0, 3.0, 4.0]"


def test_out_of_memory_then_recovery():
    _settle()
    ooms = torch.vulkan.memory_stats()["num_ooms"]
    keep = torch.arange(100, dtype=torch.float32).to("vulkan")
    with pytest.raises(torch.OutOfMemoryError, match="Tried to allocate") as info:
        torch.empty(64 << 30, dtype=torch.uint8, device="vulkan")
    assert "64.00 GiB" in str(info.value)
    assert isinstance(info.value, RuntimeError)
    assert torch.vulkan.memory_stats()["num_ooms"] == ooms + 1
    # the device is still usable and earlier tensors are intact
    assert torch.equal(keep.cpu(), torch.arange(100, dtype=torch.float32))
    x = torch.tensor([1.0, 2.0, 3.0]).to("vulkan")
    y = torch.empty(3, dtype=torch.int32, device="vulkan")
    y.copy_(x)
    assert torch.equal(y.cpu(), torch.tensor([1, 2, 3], dtype=torch.int32))
    z = torch.zeros(1 << 16, device="vulkan").fill_(7)
    assert torch.equal(z.cpu(), torch.full((1 << 16,), 7.0))


def test_out_of_memory_beyond_heap_but_under_64bit():
    total = torch.vulkan.get_device_properties().total_memory
    with pytest.raises(torch.OutOfMemoryError, match="Tried to allocate"):
        torch.empty(total + (1 << 20), dtype=torch.uint8, device="vulkan")
    assert torch.equal(torch.ones(4, device="vulkan").cpu(), torch.ones(4))


# set_per_process_memory_fraction caps what the allocator reserves, as on
# CUDA: beyond it an allocation raises torch.OutOfMemoryError (which names
# the limit) while smaller ones still succeed, and lifting the cap lets the
# same allocation through.
def test_per_process_memory_fraction():
    _settle()
    torch.vulkan.empty_cache()
    total = torch.vulkan.get_device_properties().total_memory
    assert torch.vulkan.get_per_process_memory_fraction() == 1.0
    try:
        torch.vulkan.set_per_process_memory_fraction(0.05)
        assert torch.vulkan.get_per_process_memory_fraction() == 0.05
        with pytest.raises(torch.vulkan.OutOfMemoryError, match="set_per_process_memory_fraction"):
            torch.empty(int(total * 0.06), dtype=torch.uint8, device="vulkan")
        small = torch.ones(int(total * 0.01), dtype=torch.uint8, device="vulkan")
        assert small[-1].item() == 1
    finally:
        torch.vulkan.set_per_process_memory_fraction(1.0)
    big = torch.empty(int(total * 0.06), dtype=torch.uint8, device="vulkan")
    assert big.numel() == int(total * 0.06)
    with pytest.raises(TypeError, match="must be `float`"):
        torch.vulkan.set_per_process_memory_fraction(1)
    with pytest.raises(ValueError, match="Allowed range: 0~1"):
        torch.vulkan.set_per_process_memory_fraction(1.5)
    assert torch.vulkan.OutOfMemoryError is torch.OutOfMemoryError


def test_out_of_memory_on_resize():
    d = torch.ones(4, dtype=torch.uint8, device="vulkan")
    with pytest.raises(torch.OutOfMemoryError):
        d.resize_(64 << 30)
    # the tensor must stay usable with its old storage
    d.resize_(4)
    assert torch.equal(d.cpu(), torch.ones(4, dtype=torch.uint8))


def test_zero_byte_allocation():
    _settle()
    before = torch.vulkan.memory_allocated()
    e = torch.empty(0, device="vulkan")
    assert torch.vulkan.memory_allocated() == before
    assert e.untyped_storage().nbytes() == 0
