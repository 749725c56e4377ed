"""isin (csrc/aten/ops/sort/isin.cpp) in strict mode against the CPU: OpInfo's
samples, every tensor/scalar form, invert, NaN, signed zeros, mixed dtypes,
empty inputs, and bools refused as on the CPU."""

import pytest
import torch

from tests.opinfo import check_op, parametrize


@parametrize(["isin"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


@pytest.mark.parametrize("invert", [False, True])
def test_forms_and_edges(invert, no_fallback):
    x = torch.tensor([[1.0, -0.0, float("nan"), 3.5], [7.0, 2.0, 1.0, -1.0]])
    t = torch.tensor([0.0, 1.0, float("nan"), 7.0, 7.0])
    v = lambda a: a.to("vulkan")  # noqa: E731
    for got, want in [
        (torch.isin(v(x), v(t), invert=invert), torch.isin(x, t, invert=invert)),
        (torch.isin(v(x), 7.0, invert=invert), torch.isin(x, 7.0, invert=invert)),
        (torch.isin(2.0, v(x), invert=invert), torch.isin(2.0, x, invert=invert)),
        (torch.isin(v(x), v(torch.tensor([1, 3])), invert=invert), torch.isin(x, torch.tensor([1, 3]), invert=invert)),
        (torch.isin(v(x), v(torch.empty(0)), invert=invert), torch.isin(x, torch.empty(0), invert=invert)),
        (torch.isin(v(torch.empty(0, 3)), v(t)), torch.isin(torch.empty(0, 3), t)),
    ]:
        assert got.dtype == torch.bool and got.device.type == "vulkan"
        assert torch.equal(got.cpu(), want)
    with pytest.raises(RuntimeError, match="Unsupported input type"):  # as the CPU
        torch.isin(v(x > 1), v(torch.tensor([True])))
    out = torch.empty(2, 4, dtype=torch.bool, device="vulkan")
    torch.isin(v(x), v(t), invert=invert, out=out)
    assert torch.equal(out.cpu(), torch.isin(x, t, invert=invert))
