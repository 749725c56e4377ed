"""copy_ semantics that PyTorch leaves to the backend's _copy_from: broadcasting and overlap."""

import pytest
import torch

BROADCASTS = [
    ("zero_dim", (3,), lambda: torch.tensor(5.0)),
    ("row", (2, 3), lambda: torch.tensor([1.0, 2.0, 3.0])),
    ("column", (3, 4), lambda: torch.tensor([[1.0], [2.0], [3.0]])),
    ("one_element", (2, 2), lambda: torch.tensor([-4.0])),
    ("int_row_to_float", (2, 3), lambda: torch.tensor([1, 2, 3])),
]


@pytest.mark.parametrize("shape,make", [b[1:] for b in BROADCASTS], ids=[b[0] for b in BROADCASTS])
def test_broadcast_host_to_device(shape, make, no_fallback):
    src = make()
    expected = torch.zeros(shape).copy_(src)
    d = torch.zeros(shape, device="vulkan")
    d.copy_(src)
    assert torch.equal(d.cpu(), expected)


@pytest.mark.parametrize("shape,make", [b[1:] for b in BROADCASTS], ids=[b[0] for b in BROADCASTS])
def test_broadcast_host_to_non_contiguous_device(shape, make, no_fallback):
    src = make()
    expected = torch.zeros(shape).copy_(src)
    base = torch.zeros(shape[::-1], device="vulkan")
    d = base.t() if len(shape) == 2 else torch.zeros(shape[0] * 2, device="vulkan")[::2]
    d.copy_(src)
    assert torch.equal(d.cpu(), expected)


@pytest.mark.parametrize("shape,make", [b[1:] for b in BROADCASTS], ids=[b[0] for b in BROADCASTS])
def test_broadcast_device_to_device(shape, make, no_fallback):
    src = make()
    expected = torch.zeros(shape).copy_(src)
    d = torch.zeros(shape, device="vulkan")
    d.copy_(src.to("vulkan"))
    assert torch.equal(d.cpu(), expected)


@pytest.mark.parametrize("shape,make", [b[1:] for b in BROADCASTS], ids=[b[0] for b in BROADCASTS])
def test_broadcast_device_to_host(shape, make, no_fallback):
    src = make()
    expected = torch.zeros(shape).copy_(src)
    host = torch.zeros(shape)
    host.copy_(src.to("vulkan"))
    assert torch.equal(host, expected)


def test_copy_to_self_is_noop(no_fallback):
    d = torch.arange(5.0).to("vulkan")
    d.copy_(d)
    assert torch.equal(d.cpu(), torch.arange(5.0))


def test_partially_overlapping_copy_raises_like_cpu(no_fallback):
    c = torch.arange(6.0)
    with pytest.raises(RuntimeError, match="single memory location") as cpu_error:
        c[1:].copy_(c[:-1])
    d = torch.arange(6.0).to("vulkan")
    with pytest.raises(RuntimeError, match="single memory location"):
        d[1:].copy_(d[:-1])
    assert torch.equal(d.cpu(), torch.arange(6.0))
    assert cpu_error is not None


def test_internally_overlapping_destination_raises_like_cpu(no_fallback):
    with pytest.raises(RuntimeError, match="single memory location"):
        torch.zeros(1).expand(3).copy_(torch.ones(3))
    d = torch.zeros(1, device="vulkan")
    with pytest.raises(RuntimeError, match="single memory location"):
        d.expand(3).copy_(torch.ones(3))
    with pytest.raises(RuntimeError, match="single memory location"):
        d.expand(3).copy_(torch.ones(3, device="vulkan"))


def test_copy_shape_mismatch_raises():
    d = torch.zeros(2, 3, device="vulkan")
    with pytest.raises(RuntimeError):
        d.copy_(torch.ones(4))
    with pytest.raises(RuntimeError):
        d.copy_(torch.ones(4, device="vulkan"))


def test_oversized_host_source_does_not_write_past_destination():
    a = torch.zeros(128, device="vulkan")
    b = torch.zeros(128, device="vulkan")  # typically the next 512-byte block
    with pytest.raises(RuntimeError):
        a.copy_(torch.ones(256))
    assert torch.equal(b.cpu(), torch.zeros(128))
