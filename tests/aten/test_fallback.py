"""The CPU fallback for ops without a Vulkan kernel: warnings, counts, strict mode."""

import warnings

import pytest
import torch

import torchvulkan


def _fallback_warnings(record):
    return [str(w.message) for w in record if "has no native Vulkan kernel" in str(w.message)]


def _add_key(counts):
    keys = [k for k in counts if k.startswith("aten::add")]
    assert len(keys) == 1, counts
    return keys[0]


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
    assert torch.equal(da.t().exp().cpu(), a.t().exp())


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
    torchvulkan.reset_fallback_counts()
    assert torchvulkan.fallback_counts() == {}
    x = torch.ones(3, device="vulkan")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        torch.add(x, x)
    first = _fallback_warnings(record)
    assert len(first) == 1 and "aten::add" in first[0]

    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        torch.add(x, x)
        torch.add(x, x)
    assert _fallback_warnings(record) == []

    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        torch.mul(x, x)
    second = _fallback_warnings(record)
    assert len(second) == 1 and "aten::mul" in second[0]

    counts = torchvulkan.fallback_counts()
    assert counts[_add_key(counts)] == 3
    assert sum(v for k, v in counts.items() if k.startswith("aten::mul")) == 1


def test_pytest_warns_first_call():
    torchvulkan.reset_fallback_counts()
    x = torch.ones(2, device="vulkan")
    with pytest.warns(UserWarning, match="aten::sub.*no native Vulkan kernel"):
        torch.sub(x, x)


def test_reset_fallback_counts(quiet_fallback):
    x = torch.ones(2, device="vulkan")
    torch.add(x, x)
    assert any(k.startswith("aten::add") for k in torchvulkan.fallback_counts())
    torchvulkan.reset_fallback_counts()
    assert torchvulkan.fallback_counts() == {}
    torch.add(x, x)
    counts = torchvulkan.fallback_counts()
    assert counts[_add_key(counts)] == 1


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
    x = torch.ones(3, device="vulkan")
    monkeypatch.setenv("TORCHVULKAN_STRICT", "1")
    with pytest.raises(RuntimeError, match=r"aten::add.*TORCHVULKAN_STRICT"):
        torch.add(x, x)
    with pytest.raises(RuntimeError, match="aten::neg"):
        torch.neg(x)
    # strict is read at each call
    monkeypatch.setenv("TORCHVULKAN_STRICT", "0")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.equal(torch.add(x, x).cpu(), torch.full((3,), 2.0))
    monkeypatch.delenv("TORCHVULKAN_STRICT")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.equal(torch.neg(x).cpu(), torch.full((3,), -1.0))


def test_strict_does_not_count(monkeypatch):
    torchvulkan.reset_fallback_counts()
    monkeypatch.setenv("TORCHVULKAN_STRICT", "1")
    x = torch.ones(3, device="vulkan")
    with pytest.raises(RuntimeError):
        torch.add(x, x)
    assert torchvulkan.fallback_counts() == {}


def test_view_op_without_kernel_errors_instead_of_copying(quiet_fallback):
    d = torch.arange(6.0).to("vulkan")
    with pytest.raises(RuntimeError, match="view"):
        d.unfold(0, 2, 2)
