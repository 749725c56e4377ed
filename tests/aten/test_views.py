"""Views, strides and storage offsets, and copies through non-contiguous tensors."""

import pytest
import torch

VIEWS = {
    "slice": lambda t: t[1:3, ::2],
    "slice_neg_step_free": lambda t: t[:, 1::3],
    "transpose": lambda t: t.t(),
    "permute": lambda t: t.permute(1, 0),
    "expand": lambda t: t[:1].expand(3, 6),
    "expand_unsqueeze": lambda t: t[:, 2].unsqueeze(1).expand(4, 5),
    "as_strided": lambda t: t.as_strided((2, 2), (1, 6), 3),
    "as_strided_overlap": lambda t: t.as_strided((3, 4), (2, 1), 1),
    "narrow": lambda t: t.narrow(1, 2, 3),
    "select": lambda t: t[2],
    "diagonal": lambda t: t.diagonal(),
    "view": lambda t: t.view(6, 4),
    "view_3d": lambda t: t.view(2, 2, 6)[:, 1],
    "reshape_copy": lambda t: t.t().reshape(24),
    "reshape_view": lambda t: t.reshape(3, 8),
    "flatten": lambda t: t.flatten(),
    "split": lambda t: t.split(2, 1)[1],
    "unbind": lambda t: t.unbind(0)[3],
    "mT": lambda t: t.mT[1:],
    "view_dtype": lambda t: t.view(torch.int32),
}


@pytest.mark.parametrize("name", list(VIEWS))
def test_view_device_to_host(name, no_fallback):
    c = torch.arange(24, dtype=torch.float32).reshape(4, 6) * 1.5 - 7
    d = c.to("vulkan")
    fn = VIEWS[name]
    dv, cv = fn(d), fn(c)
    assert dv.device.type == "vulkan"
    assert dv.shape == cv.shape
    assert dv.stride() == cv.stride()
    assert dv.storage_offset() == cv.storage_offset()
    assert torch.equal(dv.cpu(), cv)


@pytest.mark.parametrize("name", ["slice", "transpose", "narrow", "select", "diagonal", "view_3d", "split"])
def test_view_shares_storage_with_base(name, no_fallback):
    d = torch.zeros(4, 6, device="vulkan")
    c = torch.zeros(4, 6)
    fn = VIEWS[name]
    v = fn(d)
    assert v.untyped_storage().data_ptr() == d.untyped_storage().data_ptr()
    src = torch.arange(v.numel(), dtype=torch.float32).reshape(v.shape) + 1
    v.copy_(src)  # host -> device into a view
    fn(c).copy_(src)
    assert torch.equal(d.cpu(), c)


def test_copy_into_view_modifies_base_device_to_device(no_fallback):
    base = torch.zeros(3, 4, device="vulkan")
    src = torch.tensor([1.0, 2.0, 3.0], device="vulkan")
    base[:, 2].copy_(src)
    base[1, 1:3] = torch.tensor([8.0, 9.0])  # __setitem__ with a CPU tensor
    expected = torch.zeros(3, 4)
    expected[:, 2] = torch.tensor([1.0, 2.0, 3.0])
    expected[1, 1:3] = torch.tensor([8.0, 9.0])
    assert torch.equal(base.cpu(), expected)


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int16, torch.float32, torch.float64, torch.bool], ids=str)
def test_non_contiguous_host_to_device(dtype, no_fallback):
    c = (torch.arange(30).reshape(5, 6) % 7).to(dtype)
    src = c.t()[::2]  # non-contiguous CPU source
    d = src.to("vulkan")
    assert torch.equal(d.cpu(), src)
    dst = torch.zeros(3, 5, dtype=dtype, device="vulkan")
    dst.copy_(src)
    assert torch.equal(dst.cpu(), src)


@pytest.mark.parametrize("dtype", [torch.int8, torch.float16, torch.int64], ids=str)
def test_non_contiguous_device_to_host(dtype, no_fallback):
    c = (torch.arange(30).reshape(5, 6) - 9).to(dtype)
    d = c.to("vulkan")
    host = torch.zeros(6, 5, dtype=dtype)
    host.copy_(d.t())
    assert torch.equal(host, c.t())
    host_nc = torch.zeros(5, 12, dtype=dtype)[:, ::2]  # non-contiguous CPU destination
    host_nc.copy_(d)
    assert torch.equal(host_nc, c)


def test_device_to_device_non_contiguous_dst(no_fallback):
    c = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    d = torch.zeros(3, 8, device="vulkan")
    d[:, ::2].copy_(c.to("vulkan"))
    expected = torch.zeros(3, 8)
    expected[:, ::2] = c
    assert torch.equal(d.cpu(), expected)


def test_device_to_device_both_non_contiguous(no_fallback):
    c = torch.arange(40, dtype=torch.int32).reshape(5, 8)
    src = c.to("vulkan")
    d = torch.full((8, 10), -1, dtype=torch.int32, device="vulkan")
    d[::2, 1:5].copy_(src[1:5, ::2].t())
    expected = torch.full((8, 10), -1, dtype=torch.int32)
    expected[::2, 1:5] = c[1:5, ::2].t()
    assert torch.equal(d.cpu(), expected)


def test_copy_from_expanded_source(no_fallback):
    row = torch.tensor([1.0, -2.0, 3.0], device="vulkan")
    out = torch.empty(4, 3, device="vulkan")
    out.copy_(row.expand(4, 3))
    assert torch.equal(out.cpu(), torch.tensor([1.0, -2.0, 3.0]).expand(4, 3))


def test_storage_offset_round_trip(no_fallback):
    c = torch.arange(20, dtype=torch.float64)
    d = c.to("vulkan")
    tail = d[7:]
    assert tail.storage_offset() == 7
    assert torch.equal(tail.cpu(), c[7:])
    assert torch.equal(d[3:9].clone().cpu(), c[3:9])
    tail.copy_(torch.zeros(13, dtype=torch.float64))
    expected = c.clone()
    expected[7:] = 0
    assert torch.equal(d.cpu(), expected)


def test_odd_byte_offsets(no_fallback):
    # uint8 views whose start is not 4-byte aligned
    c = torch.arange(37, dtype=torch.uint8)
    d = c.to("vulkan")
    for start in range(1, 5):
        assert torch.equal(d[start : start + 9].cpu(), c[start : start + 9])
        d[start : start + 3].copy_(torch.tensor([200, 201, 202], dtype=torch.uint8))
        c[start : start + 3] = torch.tensor([200, 201, 202], dtype=torch.uint8)
        assert torch.equal(d.cpu(), c)


def test_empty_strided_and_contiguous(no_fallback):
    d = torch.empty_strided((3, 4), (1, 3), device="vulkan")
    assert d.stride() == (1, 3)
    d.copy_(torch.arange(12.0).reshape(3, 4))
    assert torch.equal(d.cpu(), torch.arange(12.0).reshape(3, 4))
    e = d.contiguous()
    assert e.is_contiguous() and torch.equal(e.cpu(), torch.arange(12.0).reshape(3, 4))


def test_zero_size_tensors(no_fallback):
    d = torch.empty(0, 3, device="vulkan")
    assert d.shape == (0, 3)
    assert d.cpu().shape == (0, 3)
    d.copy_(torch.empty(0, 3))
    torch.empty(0).to("vulkan")


def test_factories_like(no_fallback):
    d = torch.ones(2, 3, dtype=torch.int16, device="vulkan")
    for fn, value in ((torch.zeros_like, 0), (torch.ones_like, 1)):
        t = fn(d)
        assert t.device.type == "vulkan" and t.dtype == torch.int16
        assert torch.equal(t.cpu(), torch.full((2, 3), value, dtype=torch.int16))
    f = torch.full_like(d, 5)
    assert torch.equal(f.cpu(), torch.full((2, 3), 5, dtype=torch.int16))
    e = torch.empty_like(d)
    assert e.shape == d.shape and e.device == d.device and e.dtype == d.dtype
