"""triangular_solve, cholesky_solve and cholesky_inverse
(csrc/aten/ops/linalg/triangular.cpp) in strict mode against the CPU: both
triangles, transposed and unit-diagonal forms, broadcast batches, gradients,
empty matrices and OpInfo's samples."""

import pytest
import torch

from tests.helpers import assert_forward_backward_match
from tests.opinfo import check_op, parametrize


@parametrize(["triangular_solve", "cholesky_solve", "cholesky_inverse"], variants=["functional", "out"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant, tolerances={torch.float32: (1e-4, 1e-4)})


def _well_conditioned(*batch, n=4, dtype=torch.float64):
    g = torch.Generator().manual_seed(len(batch) * 7 + n)
    return torch.randn(*batch, n, n, generator=g, dtype=dtype) + 4 * torch.eye(n, dtype=dtype)


@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("unitriangular", [False, True])
def test_triangular_solve_forms(upper, transpose, unitriangular, no_fallback):
    A = _well_conditioned(2, 1)
    b = torch.randn(3, 4, 2, dtype=torch.float64)  # batch (2, 1) against (3,): broadcast to (2, 3)
    X, M = torch.triangular_solve(b.to("vulkan"), A.to("vulkan"), upper, transpose, unitriangular)
    Xc, Mc = torch.triangular_solve(b, A, upper, transpose, unitriangular)
    torch.testing.assert_close(X.cpu(), Xc)
    torch.testing.assert_close(M.cpu(), Mc)
    assert_forward_backward_match(lambda t, a: torch.triangular_solve(t, a, upper, transpose, unitriangular)[0],
                                  b, A)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve_and_inverse(upper, no_fallback):
    A = _well_conditioned(3)
    spd = A @ A.mT
    F = torch.linalg.cholesky(spd, upper=upper)
    b = torch.randn(3, 4, 5, dtype=torch.float64)
    torch.testing.assert_close(torch.cholesky_solve(b.to("vulkan"), F.to("vulkan"), upper).cpu(),
                               torch.cholesky_solve(b, F, upper))
    torch.testing.assert_close(torch.cholesky_inverse(F.to("vulkan"), upper).cpu(), torch.cholesky_inverse(F, upper))
    torch.testing.assert_close(torch.cholesky_inverse(F.to("vulkan"), upper).cpu(), torch.linalg.inv(spd))
    assert_forward_backward_match(lambda t, f: torch.cholesky_solve(t, f, upper), b, F)


def test_empty_and_bad_arguments(no_fallback):
    e = torch.empty(0, 0, device="vulkan")
    assert torch.cholesky_inverse(e).shape == (0, 0)
    X, M = torch.triangular_solve(torch.empty(0, 2, device="vulkan"), e)
    assert X.shape == (0, 2) and M.shape == (0, 0)
    with pytest.raises(RuntimeError, match="square"):
        torch.cholesky_inverse(torch.ones(2, 3, device="vulkan"))
    with pytest.raises(RuntimeError):
        torch.triangular_solve(torch.ones(3, 1, device="vulkan"), torch.ones(2, 2, device="vulkan"))
