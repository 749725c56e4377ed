"""linalg.cholesky on the vulkan device (csrc/aten/ops/linalg/cholesky.cpp),
in strict mode against the CPU's LAPACK: lower and upper, batched, float32
and float64, gradients (through the native triangular solves), matrices that
are not positive definite, and OpInfo samples."""

import pytest
import torch

from tests.helpers import assert_factor_into_strided_outputs, assert_forward_backward_match
from tests.opinfo import check_op, parametrize


def spd(*shape, dtype=torch.float32):
    torch.manual_seed(0)
    a = torch.randn(*shape, dtype=torch.float64)
    return (a @ a.mT + shape[-1] * torch.eye(shape[-1], dtype=torch.float64)).to(dtype)


@pytest.mark.parametrize("shape", [(1, 1), (5, 5), (3, 6, 6), (2, 2, 4, 4), (0, 3, 3)], ids=str)
@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_matches_cpu(shape, upper, dtype, no_fallback):
    a = spd(*shape, dtype=dtype)
    L, info = torch.linalg.cholesky_ex(a, upper=upper)
    Lv, infov = torch.linalg.cholesky_ex(a.to("vulkan"), upper=upper)
    assert torch.equal(infov.cpu(), info)
    torch.testing.assert_close(Lv.cpu(), L, rtol=1e-5, atol=1e-5)


def test_gradients(no_fallback):
    # The symmetric part of the input carries the gradient, as on the CPU.
    assert_forward_backward_match(lambda a: torch.linalg.cholesky((a + a.mT) / 2), spd(2, 4, 4),
                                  rtol=1e-4, atol=1e-4)


def test_info_into_a_strided_output(no_fallback):
    a = torch.randn(3, 4, 4, dtype=torch.float64)
    a = a @ a.mT + torch.eye(4, dtype=torch.float64)
    a[1] = -a[1]  # not positive definite: info 1
    assert_factor_into_strided_outputs(torch.linalg.cholesky_ex, a, rows=0)


def test_not_positive_definite(no_fallback):
    a = torch.tensor([[4.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    assert torch.linalg.cholesky_ex(a.to("vulkan")).info.item() == torch.linalg.cholesky_ex(a).info.item() == 2
    with pytest.raises(RuntimeError, match="not positive-definite"):
        torch.linalg.cholesky(a.to("vulkan"))


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("unit", [False, True])
def test_solve_triangular(left, upper, unit, no_fallback):
    t = spd(2, 4, 4)
    b = torch.randn(3, 1, 4, 2) if left else torch.randn(3, 1, 2, 4)
    assert_forward_backward_match(
        lambda a, y: torch.linalg.solve_triangular(a, y, upper=upper, left=left, unitriangular=unit), t, b,
        rtol=1e-4, atol=1e-4)


@parametrize(["linalg.cholesky", "linalg.cholesky_ex", "cholesky", "linalg.solve_triangular"],
             variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant, tolerances={torch.float32: (1e-4, 1e-4), torch.float64: (1e-9, 1e-9)})
