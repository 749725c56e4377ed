"""item(), float(), int() and bool() of vulkan tensors."""

import math

import pytest
import torch


@pytest.mark.parametrize(
    "value,dtype",
    [
        (True, torch.bool),
        (False, torch.bool),
        (255, torch.uint8),
        (-128, torch.int8),
        (-32768, torch.int16),
        (2**31 - 1, torch.int32),
        (2**62 + 3, torch.int64),
        (-(2**63), torch.int64),
        (0.333251953125, torch.float16),
        (-1.5, torch.bfloat16),
        (0.1, torch.float32),
        (0.1, torch.float64),
        (1e308, torch.float64),
    ],
)
def test_item_matches_cpu(value, dtype, no_fallback):
    c = torch.tensor(value, dtype=dtype)
    d = c.to("vulkan")
    got, expected = d.item(), c.item()
    assert type(got) is type(expected)
    assert got == expected


def test_item_of_one_element_view(no_fallback):
    c = torch.arange(10, dtype=torch.int64) * 3
    d = c.to("vulkan")
    assert d[7].item() == 21
    assert d[2:3].item() == 6
    assert d.view(2, 5)[1, 4].item() == 27


def test_item_nan_inf(no_fallback):
    d = torch.tensor([math.nan, -math.inf, -0.0], device="vulkan")
    assert math.isnan(d[0].item())
    assert d[1].item() == -math.inf
    z = d[2].item()
    assert z == 0.0 and math.copysign(1.0, z) == -1.0


def test_python_conversions(no_fallback):
    d = torch.tensor([3.75], device="vulkan")
    assert float(d) == 3.75
    assert int(d) == 3
    assert bool(d) is True
    assert bool(torch.zeros(1, device="vulkan")) is False
    assert int(torch.tensor(-7, dtype=torch.int32, device="vulkan")) == -7
    assert float(torch.tensor(2, dtype=torch.int16, device="vulkan")) == 2.0
    assert torch.tensor(5, device="vulkan").tolist() == 5


def test_item_after_async_work(no_fallback):
    d = torch.zeros(1, device="vulkan")
    for i in range(50):
        d.fill_(i)
    assert d.item() == 49.0


def test_item_of_many_elements_raises():
    with pytest.raises(RuntimeError):
        torch.zeros(2, device="vulkan").item()
