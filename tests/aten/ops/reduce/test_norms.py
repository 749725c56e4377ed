import math

import pytest
import torch

from tests.opinfo import check_op, parametrize

OPS = ["norm", ("norm", "fro"), ("norm", "inf"), "linalg.vector_norm"]


@parametrize(OPS, variants=["functional", "out"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


ORDS = [0, 1, 2, 3, 0.5, -1, -2.5, math.inf, -math.inf]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
def test_every_order_over_any_dims(dtype, no_fallback):
    x = torch.randn(4, 5, 6, dtype=dtype)
    x[1, 2, 3] = 0
    d = x.to("vulkan")
    for ord in ORDS:
        for dims in [None, (1,), (0, 2), (-1,)]:
            expected = torch.linalg.vector_norm(x, ord, dims)
            got = torch.linalg.vector_norm(d, ord, dims).cpu()
            torch.testing.assert_close(got, expected, rtol=1e-3 if dtype == torch.float16 else 1e-5, atol=1e-5,
                                       msg=lambda m: f"ord {ord} dims {dims}: {m}")


def test_norm_of_zeros_infinities_and_nan(no_fallback):
    x = torch.tensor([[0.0, 0.0, 0.0], [1.0, -math.inf, 2.0], [1.0, float("nan"), 0.0]])
    d = x.to("vulkan")
    for ord in ORDS:
        torch.testing.assert_close(torch.linalg.vector_norm(d, ord, 1).cpu(), torch.linalg.vector_norm(x, ord, 1),
                                   equal_nan=True, msg=lambda m: f"ord {ord}: {m}")


def test_norm_with_dtype_and_empty_inputs(no_fallback):
    x = torch.randn(7, 3, dtype=torch.float16)
    got = torch.linalg.vector_norm(x.to("vulkan"), 2, 0, dtype=torch.float32).cpu()
    torch.testing.assert_close(got, torch.linalg.vector_norm(x, 2, 0, dtype=torch.float32))
    assert torch.equal(torch.linalg.vector_norm(torch.empty(0, 3, device="vulkan"), 2, 0).cpu(), torch.zeros(3))
    with pytest.raises(RuntimeError, match="identity"):
        torch.linalg.vector_norm(torch.empty(0, 3, device="vulkan"), math.inf, 0)


def test_complex_norm_raises_instead_of_reading_parts_as_values():
    x = torch.randn(4, 3, dtype=torch.complex64).to("vulkan")
    with pytest.raises(RuntimeError, match="ComplexFloat input has no Vulkan kernel"):
        torch.linalg.vector_norm(x)
