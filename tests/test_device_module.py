"""The shape of torch.vulkan (like torch.cuda) and of the torchvulkan package."""

import pytest
import torch

import torchvulkan


def test_package_api():
    assert isinstance(torchvulkan.__version__, str) and torchvulkan.__version__
    assert torchvulkan.is_available() is True
    assert torchvulkan.device_count() == 1
    torchvulkan.synchronize()
    torchvulkan.empty_cache()
    assert isinstance(torchvulkan.fallback_counts(), dict)


def test_torch_vulkan_is_the_device_module():
    import sys

    assert torch.vulkan is sys.modules["torch.vulkan"]
    assert torch.get_device_module("vulkan") is torch.vulkan


def test_availability_and_selection():
    assert torch.vulkan.is_available() is True
    assert torch.vulkan.device_count() == 1
    assert torch.vulkan.current_device() == 0
    torch.vulkan.set_device(0)
    torch.vulkan.set_device("vulkan:0")
    torch.vulkan.set_device(torch.device("vulkan", 0))
    assert torch.vulkan.current_device() == 0
    assert torch.vulkan.is_initialized() in (True, False)


def test_set_device_out_of_range():
    with pytest.raises(RuntimeError, match="1 Vulkan device"):
        torch.vulkan.set_device(3)
    assert torch.vulkan.current_device() == 0


def test_set_device_rejects_other_types():
    with pytest.raises(ValueError):
        torch.vulkan.set_device("cpu")


def test_device_context_manager():
    with torch.vulkan.device(0) as ctx:
        assert torch.vulkan.current_device() == 0
        x = torch.ones(2, device="vulkan")
        assert x.device == torch.device("vulkan:0")
    assert ctx is not None
    with torch.vulkan.device("vulkan:0"):
        assert torch.vulkan.current_device() == 0
    with torch.vulkan.device(None):
        assert torch.vulkan.current_device() == 0
    assert torch.vulkan.current_device() == 0


def test_synchronize_forms():
    x = torch.zeros(8, device="vulkan")
    x.fill_(3)
    torch.vulkan.synchronize()
    torch.vulkan.synchronize(0)
    torch.vulkan.synchronize("vulkan")
    torch.vulkan.synchronize(torch.device("vulkan:0"))
    assert torch.equal(x.cpu(), torch.full((8,), 3.0))


def test_memory_functions_exist_and_are_ints():
    x = torch.ones(10, device="vulkan")
    for fn in (
        torch.vulkan.memory_allocated,
        torch.vulkan.max_memory_allocated,
        torch.vulkan.memory_reserved,
        torch.vulkan.max_memory_reserved,
    ):
        v = fn()
        assert isinstance(v, int) and v >= 0, fn
        assert fn(0) == v and fn("vulkan:0") == v
    assert torch.vulkan.memory_allocated() >= x.nbytes
    torch.vulkan.reset_peak_memory_stats()
    torch.vulkan.empty_cache()
    del x


def test_memory_stats_keys_like_cuda():
    stats = torch.vulkan.memory_stats()
    for key in (
        "allocated_bytes.all.current",
        "allocated_bytes.all.peak",
        "allocated_bytes.small_pool.current",
        "allocated_bytes.large_pool.current",
        "reserved_bytes.all.current",
        "reserved_bytes.all.peak",
        "active_bytes.all.current",
        "requested_bytes.all.current",
        "allocation.all.current",
        "segment.all.current",
        "num_alloc_retries",
        "num_ooms",
    ):
        assert key in stats, key
        assert isinstance(stats[key], int)
    assert stats["allocated_bytes.all.current"] == torch.vulkan.memory_allocated()
    assert stats["reserved_bytes.all.current"] == torch.vulkan.memory_reserved()


def test_rng_seed_functions():
    torch.vulkan.manual_seed(1234)
    assert torch.vulkan.initial_seed() == 1234
    torch.vulkan.manual_seed_all(99)
    assert torch.vulkan.initial_seed() == 99
    torch.vulkan.seed()
    assert isinstance(torch.vulkan.initial_seed(), int)


def test_rng_state_round_trip(quiet_fallback):
    torch.vulkan.manual_seed(7)
    state = torch.vulkan.get_rng_state()
    assert state.dtype == torch.uint8 and state.device.type == "cpu"
    a = torch.randn(16, device="vulkan").cpu()
    b = torch.randn(16, device="vulkan").cpu()
    assert not torch.equal(a, b)
    torch.vulkan.set_rng_state(state)
    again = torch.randn(16, device="vulkan").cpu()
    assert torch.equal(again, a)
    # Drawing advanced the generator: its state now differs from the saved one.
    assert not torch.equal(torch.vulkan.get_rng_state(), state)
    torch.vulkan.set_rng_state_all([state])
    assert torch.equal(torch.randn(16, device="vulkan").cpu(), a)
    assert len(torch.vulkan.get_rng_state_all()) == 1


def test_manual_seed_reproduces(quiet_fallback):
    torch.vulkan.manual_seed(5)
    a = torch.rand(32, device="vulkan").cpu()
    torch.vulkan.manual_seed(5)
    b = torch.rand(32, device="vulkan").cpu()
    torch.vulkan.manual_seed(6)
    c = torch.rand(32, device="vulkan").cpu()
    assert torch.equal(a, b)
    assert not torch.equal(a, c)


def test_amp_supported_dtypes():
    dtypes = torch.vulkan.get_amp_supported_dtype()
    assert torch.float16 in dtypes and torch.bfloat16 in dtypes


def test_bf16_supported_like_cuda():
    assert torch.vulkan.is_bf16_supported()
    native = torch.vulkan.is_bf16_supported(including_emulation=False)
    assert native == torch.vulkan.get_device_properties().bfloat16
    x = torch.tensor([1.5, -2.25], dtype=torch.bfloat16, device="vulkan")
    assert (x * 2).cpu().tolist() == [3.0, -4.5]


def test_device_properties():
    p = torch.vulkan.get_device_properties()
    assert p == torch.vulkan.get_device_properties(0) == torch.vulkan.get_device_properties("vulkan:0")
    assert isinstance(p.name, str) and p.name
    assert torch.vulkan.get_device_name() == p.name
    assert isinstance(p.subgroup_size, int) and p.subgroup_size >= 1
    assert p.subgroup_size & (p.subgroup_size - 1) == 0
    assert p.float64 is True  # lavapipe has shaderFloat64
    assert isinstance(p.float16, bool) and isinstance(p.int64, bool)
    assert p.total_memory > 0
    assert len(p.max_workgroup_size) == 3 and len(p.max_workgroup_count) == 3
    assert p.max_workgroup_invocations >= 128
    assert p.api_version.count(".") == 2


def test_memory_summary():
    torchvulkan.synchronize()
    keep = torch.ones(1 << 20, device="vulkan")  # 4 MiB, the large pool
    summary = torch.vulkan.memory_summary()
    rows = [[c.strip() for c in line.split("|")[1:-1]] for line in summary.splitlines() if line.count("|") == 6]
    titles = [row[0] for row in rows]
    allocated = torch.vulkan.memory_stats()["allocated_bytes.large_pool.current"]
    assert allocated >= 4 << 20
    # "Allocated memory", then its large pool's row
    assert rows[titles.index("Allocated memory") + 1][1] == f"{allocated / 2**20:.2f} MiB"
    assert int(rows[titles.index("Allocations")][1]) == torch.vulkan.memory_stats()["allocation.all.current"]
    abbreviated = torch.vulkan.memory_summary(abbreviated=True)
    assert "from large pool" not in abbreviated and "Allocated memory" in abbreviated
    del keep


def test_mem_get_info():
    free, total = torch.vulkan.mem_get_info()
    assert 0 <= free <= total
    assert total == torch.vulkan.get_device_properties().total_memory


def test_accelerator_memory_api():
    acc = torch.accelerator.current_accelerator()
    if acc is None or acc.type != "vulkan":
        pytest.skip(f"current accelerator is {acc}")
    assert torch.accelerator.is_available()
    assert torch.accelerator.device_count() == 1
    x = torch.ones(1000, device="vulkan")  # 4000 bytes -> 4096 with 512-byte rounding
    allocated = torch.accelerator.memory_allocated()
    assert allocated == torch.vulkan.memory_allocated()
    assert allocated >= 4000
    stats = torch.accelerator.memory_stats()
    assert stats["allocated_bytes.all.current"] == allocated
    assert torch.accelerator.memory_reserved() == torch.vulkan.memory_reserved()
    assert torch.accelerator.max_memory_allocated() >= allocated
    torch.accelerator.reset_peak_memory_stats()
    assert torch.accelerator.max_memory_allocated() == torch.accelerator.memory_allocated()
    del x
    assert torch.accelerator.memory_allocated() == allocated - 4096
    torch.accelerator.synchronize()
    torch.accelerator.empty_cache()
