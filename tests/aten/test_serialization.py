"""torch.save / torch.load of vulkan tensors and modules."""

import io

import torch


def _round_trip(obj, **load_kwargs):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, **load_kwargs)


def test_save_load_tensor_stays_on_vulkan():
    c = torch.tensor([[1.5, -2.0], [float("inf"), 0.25]])
    d = c.to("vulkan")
    loaded = _round_trip(d)
    assert loaded.device == torch.device("vulkan:0")
    assert torch.equal(loaded.cpu(), c)


def test_save_load_map_location_cpu():
    c = torch.arange(10, dtype=torch.int64)
    loaded = _round_trip(c.to("vulkan"), map_location="cpu")
    assert loaded.device.type == "cpu"
    assert torch.equal(loaded, c)


def test_load_cpu_tensor_onto_vulkan():
    c = torch.arange(4, dtype=torch.float16)
    loaded = _round_trip(c, map_location="vulkan")
    assert loaded.device.type == "vulkan"
    assert torch.equal(loaded.cpu(), c)


def test_save_load_views_share_storage():
    c = torch.arange(12, dtype=torch.float32)
    d = c.to("vulkan")
    a, b = _round_trip((d, d[4:].view(2, 4)))
    assert a.device.type == "vulkan" and b.device.type == "vulkan"
    assert b.storage_offset() == 4
    assert a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
    assert torch.equal(b.cpu(), c[4:].view(2, 4))


def test_save_load_all_dtypes():
    tensors = {
        str(dt): (torch.arange(6) - 2).to(dt)
        for dt in (torch.bool, torch.uint8, torch.int8, torch.int32, torch.int64, torch.float16,
                   torch.bfloat16, torch.float64, torch.complex64)
    }
    loaded = _round_trip({k: v.to("vulkan") for k, v in tensors.items()})
    for k, v in tensors.items():
        assert loaded[k].device.type == "vulkan", k
        assert loaded[k].dtype == v.dtype
        assert torch.equal(loaded[k].cpu(), v), k


def test_state_dict_of_linear_file(tmp_path):
    torch.manual_seed(0)
    m = torch.nn.Linear(3, 2).to("vulkan")
    path = tmp_path / "linear.pt"
    torch.save(m.state_dict(), path)
    ref = {k: v.cpu() for k, v in m.state_dict().items()}

    on_device = torch.load(path)
    assert set(on_device) == {"weight", "bias"}
    for k, v in on_device.items():
        assert v.device.type == "vulkan"
        assert torch.equal(v.cpu(), ref[k])

    on_cpu = torch.load(path, map_location="cpu")
    fresh = torch.nn.Linear(3, 2)
    fresh.load_state_dict(on_cpu)
    for k, v in fresh.state_dict().items():
        assert v.device.type == "cpu"
        assert torch.equal(v, ref[k])

    target = torch.nn.Linear(3, 2).to("vulkan")
    target.load_state_dict(on_cpu)  # copies CPU values into vulkan parameters
    for k, v in target.state_dict().items():
        assert v.device.type == "vulkan"
        assert torch.equal(v.cpu(), ref[k])


def test_state_dict_bytesio_weights_only():
    m = torch.nn.Linear(2, 2)
    with torch.no_grad():
        m.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
        m.bias.copy_(torch.tensor([-1.0, 0.5]))
    m.to("vulkan")
    loaded = _round_trip(m.state_dict(), weights_only=True)
    assert torch.equal(loaded["weight"].cpu(), torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    assert torch.equal(loaded["bias"].cpu(), torch.tensor([-1.0, 0.5]))
    assert loaded["weight"].device.type == "vulkan"
