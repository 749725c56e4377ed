"""resize_, set_ and untyped_storage() on vulkan tensors."""

import pytest
import torch


def test_resize_grow_keeps_contents(no_fallback):
    c = torch.arange(5, dtype=torch.float32) + 1
    d = c.to("vulkan")
    ptr = d.untyped_storage().data_ptr()
    d.resize_(300)
    assert d.shape == (300,)
    assert d.untyped_storage().nbytes() == 1200
    assert d.untyped_storage().data_ptr() != ptr
    assert torch.equal(d[:5].cpu(), c)
    d[5:].fill_(0)
    assert torch.equal(d.cpu()[:6], torch.tensor([1.0, 2, 3, 4, 5, 0]))


def test_resize_shrink_keeps_storage(no_fallback):
    c = torch.arange(12, dtype=torch.int64)
    d = c.to("vulkan")
    nbytes = d.untyped_storage().nbytes()
    d.resize_(2, 3)
    assert d.shape == (2, 3)
    assert d.untyped_storage().nbytes() == nbytes
    assert torch.equal(d.cpu(), c[:6].view(2, 3))


def test_resize_of_view_with_offset(no_fallback):
    c = torch.arange(8, dtype=torch.int32)
    base = c.to("vulkan")
    v = base[6:]
    v.resize_(5)  # needs 11 elements of storage: grows the shared storage
    assert v.storage_offset() == 6
    assert v.untyped_storage().nbytes() == 11 * 4
    assert torch.equal(v[:2].cpu(), c[6:])
    # the base still sees its values
    assert torch.equal(base.cpu(), c)


def test_resize_from_empty(no_fallback):
    d = torch.empty(0, dtype=torch.float16, device="vulkan")
    d.resize_(4, 4)
    d.fill_(2.5)
    assert torch.equal(d.cpu(), torch.full((4, 4), 2.5, dtype=torch.float16))


def test_resize_as_(no_fallback):
    d = torch.zeros(2, device="vulkan")
    d.resize_as_(torch.empty(3, 3))
    assert d.shape == (3, 3)


def test_set_storage(no_fallback):
    c = torch.arange(10, dtype=torch.float32)
    src = c.to("vulkan")
    t = torch.empty(0, device="vulkan")
    t.set_(src.untyped_storage())
    assert t.shape == (10,)
    assert t.untyped_storage().data_ptr() == src.untyped_storage().data_ptr()
    assert torch.equal(t.cpu(), c)


def test_set_storage_offset_size_stride(no_fallback):
    c = torch.arange(12, dtype=torch.float32)
    src = c.to("vulkan")
    t = torch.empty(0, device="vulkan")
    t.set_(src.untyped_storage(), 2, (3, 2), (1, 3))
    expected = torch.empty(0).set_(c.untyped_storage(), 2, (3, 2), (1, 3))
    assert t.storage_offset() == 2 and t.stride() == (1, 3)
    assert torch.equal(t.cpu(), expected)
    t.fill_(-1)  # writes through to the shared storage
    expected.fill_(-1)
    assert torch.equal(src.cpu(), c)


def test_set_tensor(no_fallback):
    c = torch.arange(6, dtype=torch.int16).reshape(2, 3)
    src = c.to("vulkan")
    t = torch.empty(0, dtype=torch.int16, device="vulkan")
    t.set_(src[:, 1:])
    assert t.shape == (2, 2) and t.stride() == (3, 1) and t.storage_offset() == 1
    assert torch.equal(t.cpu(), c[:, 1:])
    t.zero_()
    c[:, 1:] = 0
    assert torch.equal(src.cpu(), c)


def test_set_empty(no_fallback):
    d = torch.ones(4, device="vulkan")
    d.set_()
    assert d.shape == (0,)
    assert d.untyped_storage().nbytes() == 0
    d.resize_(3)
    d.fill_(4)
    assert torch.equal(d.cpu(), torch.full((3,), 4.0))


def test_set_storage_reinterprets_bytes(no_fallback):
    c = torch.tensor([1.0, -2.5, 3.0, 1e300], dtype=torch.float64)
    t = torch.empty(0, dtype=torch.int32, device="vulkan")
    # a 32-byte storage seen as int32 is 8 elements
    t.set_(c.to("vulkan").untyped_storage())
    assert t.shape == (8,)
    assert torch.equal(t.cpu(), c.view(torch.int32))


def test_set_cpu_storage_on_vulkan_tensor_raises():
    t = torch.empty(0, device="vulkan")
    with pytest.raises(RuntimeError):
        t.set_(torch.zeros(3).untyped_storage())


@pytest.mark.parametrize(
    "dtype,n", [(torch.uint8, 3), (torch.float16, 5), (torch.float32, 7), (torch.float64, 2), (torch.bool, 9)]
)
def test_untyped_storage_size(dtype, n, no_fallback):
    d = torch.zeros(n, dtype=dtype, device="vulkan")
    s = d.untyped_storage()
    assert s.nbytes() == n * d.element_size()
    assert s.size() == s.nbytes()
    assert s.device == torch.device("vulkan:0")
    assert d[1:].untyped_storage().nbytes() == s.nbytes()


def test_storage_cpu_round_trip():
    c = torch.arange(6, dtype=torch.int32)
    d = c.to("vulkan")
    host = d.untyped_storage().cpu()
    assert host.device.type == "cpu"
    assert torch.equal(torch.empty(0, dtype=torch.int32).set_(host), c)


def test_is_set_to(no_fallback):
    d = torch.arange(12.0, device="vulkan")
    view = d.view(3, 4)
    t = torch.empty(0, device="vulkan").set_(view)
    assert t.is_set_to(view) and view.is_set_to(t)
    assert not view.is_set_to(d)  # same storage and offset, other sizes
    assert not view.is_set_to(view.t())  # other strides
    assert not d[1:].is_set_to(d[:-1])  # other offset
    assert not d.is_set_to(d.clone())  # other storage
    # Two empty tensors with nothing to point at are not set to each other.
    assert not torch.empty(0, device="vulkan").is_set_to(torch.empty(0, device="vulkan"))
