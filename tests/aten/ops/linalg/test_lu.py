"""The LU family on the vulkan device (csrc/aten/ops/linalg/lu.cpp), in
strict mode against the CPU's LAPACK: lu_factor (square, rectangular,
batched, without pivoting), lu_solve (left and right, adjoint, broadcast
batches), det, slogdet, solve, inv with their gradients, singular matrices
and OpInfo samples."""

import pytest
import torch

from tests.helpers import assert_factor_into_strided_outputs, assert_forward_backward_match
from tests.opinfo import check_op, parametrize


def well_conditioned(*shape, dtype=torch.float32):
    torch.manual_seed(0)
    n = shape[-1]
    return (torch.randn(*shape, dtype=torch.float64) + 3 * torch.eye(n, dtype=torch.float64)).to(dtype)


# From 10 rows up a workgroup's later subgroups hold rows below the
# pivot's (the 33- and 70-row shapes caught a race on the pivot's value).
@pytest.mark.parametrize("shape", [(5, 5), (3, 6, 6), (2, 2, 7, 4), (4, 7), (1, 1), (0, 3, 3), (33, 33),
                                   (2, 70, 70), (40, 25), (25, 40)], ids=str)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_lu_factor_matches_cpu(shape, dtype, no_fallback):
    torch.manual_seed(0)
    a = torch.randn(shape, dtype=dtype)
    LU, pivots, info = torch.linalg.lu_factor_ex(a)
    LUv, pivotsv, infov = torch.linalg.lu_factor_ex(a.to("vulkan"))
    assert torch.equal(pivotsv.cpu(), pivots) and torch.equal(infov.cpu(), info)
    torch.testing.assert_close(LUv.cpu(), LU, rtol=1e-4, atol=1e-5)
    assert LUv.stride() == LU.stride()  # F-contiguous, as ATen's meta makes it


# out= pivots and info with strides of their own: written through a
# contiguous copy (the kernel writes contiguous rows).
def test_lu_factor_into_strided_outputs(no_fallback):
    assert_factor_into_strided_outputs(torch.linalg.lu_factor_ex, torch.randn(3, 5, 5, dtype=torch.float64))


def test_lu_factor_without_pivoting(no_fallback):
    a = well_conditioned(4, 4, dtype=torch.float64)
    LU, pivots = torch.linalg.lu_factor(a.to("vulkan"), pivot=False)
    assert torch.equal(pivots.cpu(), torch.arange(1, 5, dtype=torch.int32))
    L = LU.cpu().tril(-1) + torch.eye(4, dtype=torch.float64)
    torch.testing.assert_close(L @ LU.cpu().triu(), a)


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
def test_lu_solve(left, adjoint, no_fallback):
    a = well_conditioned(3, 5, 5)
    torch.manual_seed(1)
    b = torch.randn(2, 3, 5, 4) if left else torch.randn(2, 3, 4, 5)
    LU, pivots = torch.linalg.lu_factor(a)
    expected = torch.linalg.lu_solve(LU, pivots, b, left=left, adjoint=adjoint)
    LUv, pivotsv = torch.linalg.lu_factor(a.to("vulkan"))
    got = torch.linalg.lu_solve(LUv, pivotsv, b.to("vulkan"), left=left, adjoint=adjoint)
    torch.testing.assert_close(got.cpu(), expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("fn", [torch.linalg.det, lambda a: torch.linalg.slogdet(a)[1], torch.linalg.inv,
                                lambda a: torch.linalg.slogdet(a)[0] * torch.logdet(a.mT @ a)],
                         ids=["det", "logabsdet", "inv", "sign_logdet"])
def test_values_and_gradients(fn, no_fallback):
    assert_forward_backward_match(fn, well_conditioned(2, 4, 4), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_larger_inverse_and_solve(dtype, no_fallback):
    a, b = well_conditioned(3, 45, 45, dtype=dtype), torch.randn(3, 45, 2, dtype=dtype)
    da, db = a.to("vulkan"), b.to("vulkan")
    torch.testing.assert_close(torch.linalg.inv(da).cpu(), torch.linalg.inv(a), rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(torch.linalg.solve(da, db).cpu(), torch.linalg.solve(a, b), rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(torch.linalg.det(da).cpu(), torch.linalg.det(a), rtol=1e-4, atol=0)


def test_solve_vector_matrix_and_right(no_fallback):
    a, b = well_conditioned(3, 3), torch.randn(3, 2)
    assert_forward_backward_match(torch.linalg.solve, a, b, rtol=1e-4, atol=1e-4)
    assert_forward_backward_match(torch.linalg.solve, a, torch.randn(3), rtol=1e-4, atol=1e-4)
    assert_forward_backward_match(lambda x, y: torch.linalg.solve(x, y, left=False), a, torch.randn(2, 3),
                                  rtol=1e-4, atol=1e-4)


def test_singular(no_fallback):
    a = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
    assert torch.linalg.det(a.to("vulkan")).item() == 0.0
    assert torch.linalg.lu_factor_ex(a.to("vulkan")).info.item() == 2
    assert torch.linalg.inv_ex(a.to("vulkan")).info.item() == 2
    with pytest.raises(RuntimeError, match="singular"):
        torch.linalg.inv(a.to("vulkan"))
    sign, logabsdet = torch.linalg.slogdet(a.to("vulkan"))
    assert sign.item() == 0.0 and logabsdet.item() == float("-inf")


@parametrize(["linalg.det", "linalg.slogdet", "linalg.inv", "linalg.inv_ex", "linalg.solve", "linalg.solve_ex",
              "linalg.lu_factor", "linalg.lu_factor_ex", "linalg.lu_solve", "logdet", "linalg.matrix_power"],
             variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant, tolerances={torch.float32: (1e-4, 1e-4), torch.float64: (1e-9, 1e-9)})
