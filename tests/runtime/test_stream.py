"""The device queue: asynchronous work, synchronize, events, threads."""

import threading
import time

import torch

import torchvulkan
from tests.helpers import run_python


def test_long_chain_of_fills_then_cpu(no_fallback):
    d = torch.zeros(64, device="vulkan")
    for i in range(200):
        d.fill_(float(i))
    assert torch.equal(d.cpu(), torch.full((64,), 199.0))


def test_long_chain_of_dependent_copies(no_fallback):
    a = torch.zeros(100, dtype=torch.int32, device="vulkan")
    b = torch.zeros(100, dtype=torch.int32, device="vulkan")
    expected_a = torch.zeros(100, dtype=torch.int32)
    for i in range(200):
        a[i % 100 :].fill_(i)  # write
        b.copy_(a)  # read after write
        n = (i * 7) % 100
        a[:n].copy_(b[:n])  # write after read/write of the same memory
        expected_a[i % 100 :] = i
    assert torch.equal(a.cpu(), expected_a)
    assert torch.equal(b.cpu(), expected_a)


def test_ping_pong_with_conversions(no_fallback):
    x = torch.arange(50, dtype=torch.float32).to("vulkan")
    y = torch.empty(50, dtype=torch.int64, device="vulkan")
    for _ in range(100):
        y.copy_(x)
        x.copy_(y)
    assert torch.equal(x.cpu(), torch.arange(50, dtype=torch.float32))
    assert torch.equal(y.cpu(), torch.arange(50, dtype=torch.int64))


def test_many_uploads_then_one_download(no_fallback):
    d = torch.zeros(10, 16, device="vulkan")
    for i in range(10):
        d[i].copy_(torch.full((16,), float(i)))
    expected = torch.arange(10, dtype=torch.float32).unsqueeze(1).expand(10, 16)
    assert torch.equal(d.cpu(), expected)


def test_synchronize_completes_queued_work(no_fallback):
    d = torch.zeros(256, device="vulkan")
    for i in range(100):
        d.fill_(i)
    torchvulkan.synchronize()
    torch.vulkan.synchronize()
    torch.accelerator.synchronize()
    assert d[255].item() == 99.0


def test_event_record_and_synchronize(no_fallback):
    d = torch.zeros(64, device="vulkan")
    for i in range(30):
        d.fill_(i)
    e = torch.Event(device="vulkan")
    e.record()
    e.synchronize()
    assert e.query()
    assert d[0].item() == 29.0


def test_event_elapsed_ordering(no_fallback):
    start = torch.Event(device="vulkan")
    end = torch.Event(device="vulkan")
    start.record()
    torch.ones(16, device="vulkan").fill_(3)
    end.record()
    end.synchronize()
    assert start.query() and end.query()


def test_large_op_starts_without_synchronize(no_fallback):
    # A command spanning 64 MiB or more is submitted at once while the queue
    # is short (csrc/runtime/stream.cpp), so its event completes untouched.
    big = torch.zeros(16 << 20, device="vulkan")  # 64 MiB
    torch.vulkan.synchronize()
    big.fill_(1.0)
    e = torch.Event(device="vulkan")
    e.record()
    deadline = time.monotonic() + 60
    while not e.query() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert e.query()


def test_small_ops_start_when_the_gpu_is_idle(no_fallback):
    # With nothing running, a small command is handed to the submitting
    # thread at once (csrc/runtime/stream.cpp), so its event completes
    # without a synchronize; 64-command batches alone would keep it back.
    torch.vulkan.synchronize()
    x = torch.zeros(16, device="vulkan")
    torch.vulkan.synchronize()
    x.fill_(2.0)
    e = torch.Event(device="vulkan")
    e.record()
    deadline = time.monotonic() + 60
    while not e.query() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert e.query()
    assert x.cpu().eq(2.0).all()


def test_current_stream_is_vulkan():
    s = torch.accelerator.current_stream()
    assert s.device.type == "vulkan"
    s.synchronize()
    assert s.query()


def test_two_threads_concurrent_copies_and_fills():
    errors = []
    results = {}

    def worker(tid):
        try:
            base = torch.arange(32, dtype=torch.float32) + 1000 * tid
            d = torch.zeros(32, device="vulkan")
            other = torch.zeros(32, dtype=torch.int32, device="vulkan")
            for i in range(200):
                d.copy_(base + i)
                other.copy_(d)
                d[::2].fill_(-tid)
                if i % 40 == 0:
                    expected = base + i
                    expected[::2] = -tid
                    got = d.cpu()
                    if not torch.equal(got, expected):
                        errors.append((tid, i, got, expected))
            results[tid] = (d.cpu(), other.cpu())
        except Exception as e:  # pragma: no cover - reported below
            errors.append((tid, repr(e)))

    threads = [threading.Thread(target=worker, args=(t,)) for t in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    for tid in (1, 2):
        expected = torch.arange(32, dtype=torch.float32) + 1000 * tid + 199
        expected_int = expected.to(torch.int32)
        expected[::2] = -tid
        d, other = results[tid]
        assert torch.equal(d, expected), tid
        assert torch.equal(other, expected_int), tid


def test_two_threads_allocating():
    errors = []

    def worker(tid):
        try:
            for i in range(100):
                x = torch.full((17 + tid,), float(i + tid), device="vulkan")
                if x[3].item() != float(i + tid):
                    errors.append((tid, i))
        except Exception as e:  # pragma: no cover
            errors.append(repr(e))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []


def test_batch_size_one_subprocess():
    code = """
        import torch, torchvulkan
        d = torch.zeros(8, device="vulkan")
        for i in range(20):
            d[i % 8:].fill_(i)
        e = d.to(torch.int16)
        print(e.cpu().tolist())
    """
    expected = torch.zeros(8)
    for i in range(20):
        expected[i % 8 :] = i
    # Batches of one and three commands, and (TORCHVULKAN_EAGER_MIB=0) every
    # batch submitted early while fewer than two are in flight.
    for env in ({"TORCHVULKAN_BATCH": "1"}, {"TORCHVULKAN_BATCH": "3"}, {"TORCHVULKAN_EAGER_MIB": "0"}):
        r = run_python(code, env)
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == str(expected.to(torch.int16).tolist())


def test_kernel_times_name_each_dispatch_while_on(no_fallback):
    a = torch.randn(40, 30, device="vulkan")
    b = torch.randn(30, 20, device="vulkan")
    torch.vulkan.synchronize()
    torchvulkan._C.profile_kernels(True, 0)
    try:
        (a @ b).relu_()
    finally:
        torchvulkan._C.profile_kernels(False, 0)
    a.add_(1)  # not timed
    times = torchvulkan._C.kernel_times(0)
    assert len(times) == 2 and all(ns > 0 for _, ns in times)
    assert times[0][0].startswith("gemm_") and times[1][0] == "activation.relu.f32"
    assert torchvulkan._C.kernel_times(0) == []
