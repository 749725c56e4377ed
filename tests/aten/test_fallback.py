"""The CPU fallback for ops without a Vulkan kernel: warnings, counts, strict mode.

Ops keep gaining native kernels, so the warning/count/strict tests use an op
defined here with a CPU kernel only (next_toward, C's nextafter) and ATen's
FFTs, which are far from getting one (they need complex kernels), checking
first, through the dispatcher, that those still have none: a test that silently stopped exercising the fallback would pass while
testing nothing.
Every dense view op of ATen has a vulkan kernel, so the view guard is tested
with a view op defined here with a CPU kernel only.
"""

import warnings

import pytest
import torch

import torchvulkan


def _fallback_warnings(record):
    return [str(w.message) for w in record if "has no native Vulkan kernel" in str(w.message)]


def _key(counts, prefix):
    keys = [k for k in counts if k.startswith(prefix)]
    assert len(keys) == 1, counts
    return keys[0]


# An op whose only kernel is the CPU's, so calls on vulkan tensors always
# take the fallback.
_lib = torch.library.Library("torchvulkan_fallback_test", "DEF")
_lib.define("next_toward(Tensor a, Tensor b) -> Tensor")
_lib.impl("next_toward", torch.nextafter, "CPU")
next_toward = torch.ops.torchvulkan_fallback_test.next_toward
NEXT = "torchvulkan_fallback_test::next_toward"


def _not_native(*ops):
    for op in ops:
        assert not torch._C._dispatch_has_kernel_for_dispatch_key(op, "PrivateUse1"), (
            f"{op} has a native kernel now: pick another op for the fallback tests")


@pytest.fixture(autouse=True)
def _fallback_ops_have_no_kernel():
    _not_native("aten::_fft_r2c", "aten::_fft_c2r")


def _pair():
    a = torch.tensor([1.0, 2.5, 0.5])
    b = torch.tensor([2.0, 3.0, 1.5])
    return a, b, a.to("vulkan"), b.to("vulkan")


def test_fallback_result_matches_cpu(quiet_fallback):
    a = torch.tensor([[1.0, 2.0], [3.0, -4.0]])
    b = torch.tensor([[0.5, -1.0], [2.0, 8.0]])
    da, db = a.to("vulkan"), b.to("vulkan")
    out = torch.add(da, db)
    assert out.device.type == "vulkan"
    assert torch.equal(out.cpu(), a + b)
    assert torch.equal((da * db).cpu(), a * b)
    assert torch.equal(torch.matmul(da, db).cpu(), a @ b)
    assert torch.equal(da.sum().cpu(), a.sum())
    torch.testing.assert_close(da.t().exp().cpu(), a.t().exp())


def test_fallback_in_place_and_out_on_views(quiet_fallback):
    c = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    d = c.to("vulkan")
    d[:, 1::2].add_(100)
    c[:, 1::2].add_(100)
    assert torch.equal(d.cpu(), c)
    out = torch.empty(3, 2, device="vulkan")
    torch.mul(d[:, ::2], 2, out=out)
    assert torch.equal(out.cpu(), c[:, ::2] * 2)


def test_warns_once_per_op_and_counts():
    # ATen's ops (a CPU-only op defined in Python warns through the C++
    # handler, not Python's warnings).
    torchvulkan.reset_fallback_counts()
    a, _, x, _ = _pair()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        r = torch.fft.rfft(x)
    first = _fallback_warnings(record)
    assert len(first) == 1 and "aten::_fft_r2c" in first[0]
    assert torch.equal(r.cpu(), torch.fft.rfft(a))

    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        torch.fft.rfft(x)
        torch.fft.rfft(x * 2)
    assert _fallback_warnings(record) == []

    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        back = torch.fft.irfft(r, n=3)
    second = _fallback_warnings(record)
    assert len(second) == 1 and "aten::_fft_c2r" in second[0]
    assert torch.equal(back.cpu(), torch.fft.irfft(torch.fft.rfft(a), n=3))

    counts = torchvulkan.fallback_counts()
    assert counts[_key(counts, "aten::_fft_r2c")] == 3
    assert counts[_key(counts, "aten::_fft_c2r")] == 1


def test_add_counts_when_not_native(quiet_fallback):
    # torch.add is the example; it counts only while it has no kernel.
    torchvulkan.reset_fallback_counts()
    x = torch.ones(3, device="vulkan")
    assert torch.equal(torch.add(x, x).cpu(), torch.full((3,), 2.0))
    counts = torchvulkan.fallback_counts()
    add_keys = [k for k in counts if k.startswith("aten::add")]
    assert all(counts[k] == 1 for k in add_keys)
    assert set(counts) <= set(add_keys)


def test_pytest_warns_first_call():
    torchvulkan.reset_fallback_counts()
    _, _, x, y = _pair()
    with pytest.warns(UserWarning, match="aten::_fft_r2c.*no native Vulkan kernel"):
        torch.fft.rfft(x)


def test_reset_fallback_counts(quiet_fallback):
    _, _, x, y = _pair()
    next_toward(x, y)
    assert any(k.startswith(NEXT) for k in torchvulkan.fallback_counts())
    torchvulkan.reset_fallback_counts()
    assert torchvulkan.fallback_counts() == {}
    next_toward(x, y)
    counts = torchvulkan.fallback_counts()
    assert counts[_key(counts, NEXT)] == 1


def test_reset_makes_warning_show_again():
    _, _, x, _ = _pair()
    torchvulkan.reset_fallback_counts()
    for _ in range(2):
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            torch.fft.rfft(x)
        assert len(_fallback_warnings(record)) == 1
        torchvulkan.reset_fallback_counts()


def test_counts_are_a_copy(quiet_fallback):
    torchvulkan.reset_fallback_counts()
    counts = torchvulkan.fallback_counts()
    counts["aten::fake"] = 1
    assert "aten::fake" not in torchvulkan.fallback_counts()


def test_native_ops_do_not_count(no_fallback):
    torchvulkan.reset_fallback_counts()
    x = torch.zeros(4, device="vulkan")
    x.fill_(2)
    x.zero_()
    y = x.to(torch.int32).cpu()
    x[1:3].copy_(torch.ones(2))
    x.view(2, 2).t().contiguous()
    assert x[1].item() == 1.0
    assert torch.equal(y, torch.zeros(4, dtype=torch.int32))
    assert torchvulkan.fallback_counts() == {}


def test_strict_mode_raises_naming_the_op(monkeypatch):
    a, b, x, y = _pair()
    monkeypatch.setenv("TORCHVULKAN_STRICT", "1")
    with pytest.raises(RuntimeError, match=NEXT + ".*TORCHVULKAN_STRICT"):
        next_toward(x, y)
    with pytest.raises(RuntimeError, match="aten::_fft_r2c"):
        torch.fft.rfft(x)
    # strict is read at each call
    monkeypatch.setenv("TORCHVULKAN_STRICT", "0")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.equal(next_toward(x, y).cpu(), torch.nextafter(a, b))
    monkeypatch.delenv("TORCHVULKAN_STRICT")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = torch.fft.rfft(x).cpu()
    assert torch.equal(got, torch.fft.rfft(a))


def test_strict_does_not_count(monkeypatch):
    torchvulkan.reset_fallback_counts()
    monkeypatch.setenv("TORCHVULKAN_STRICT", "1")
    _, _, x, y = _pair()
    with pytest.raises(RuntimeError):
        next_toward(x, y)
    assert torchvulkan.fallback_counts() == {}


def test_view_op_without_kernel_errors_instead_of_copying(quiet_fallback):
    lib = torch.library.Library("torchvulkan_test", "DEF")
    lib.define("flat_view(Tensor(a) x) -> Tensor(a)")
    lib.impl("flat_view", lambda x: x.view(-1), "CPU")
    d = torch.arange(6.0).to("vulkan").reshape(3, 2)
    with pytest.raises(RuntimeError, match="view"):
        torch.ops.torchvulkan_test.flat_view(d)

