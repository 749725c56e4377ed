"""linalg.svd on the vulkan device (csrc/aten/ops/linalg/svd.cpp), in strict
mode against the CPU's LAPACK: singular values, vectors up to sign (|U| and
|Vh| against the CPU's, orthonormality, A = U diag(S) Vh), full and thin,
tall, wide, square, batched and rank-deficient matrices, gradients of
sign-invariant functions, and OpInfo samples of the ops built on it."""

import pytest
import torch

from tests.helpers import assert_forward_backward_match
from tests.opinfo import check_op, parametrize


def matrix(*shape, dtype=torch.float32):
    torch.manual_seed(0)
    return torch.randn(*shape, dtype=dtype)


def assert_orthonormal_columns(q, **tol):
    torch.testing.assert_close(q.mT @ q, torch.eye(q.shape[-1], dtype=q.dtype).expand(q.shape[:-2] + (q.shape[-1],) * 2),
                               **tol)


@pytest.mark.parametrize("shape", [(1, 1), (6, 4), (4, 6), (5, 5), (3, 7, 3), (2, 2, 3, 5), (0, 3, 2), (33, 9)],
                         ids=str)
@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_matches_cpu(shape, full, dtype, no_fallback):
    a = matrix(*shape, dtype=dtype)
    U, S, Vh = torch.linalg.svd(a, full_matrices=full)
    Uv, Sv, Vhv = (t.cpu() for t in torch.linalg.svd(a.to("vulkan"), full_matrices=full))
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == torch.float32 else dict(rtol=1e-10, atol=1e-10)
    assert Uv.shape == U.shape and Vhv.shape == Vh.shape
    torch.testing.assert_close(Sv, S, **tol)
    assert_orthonormal_columns(Uv, **tol)
    assert_orthonormal_columns(Vhv.mT, **tol)
    k = S.shape[-1]
    torch.testing.assert_close(Uv[..., :k] * Sv.unsqueeze(-2) @ Vhv[..., :k, :], a, **tol)
    torch.testing.assert_close(Uv[..., :k].abs(), U[..., :k].abs(), **tol)
    torch.testing.assert_close(Vhv[..., :k, :].abs(), Vh[..., :k, :].abs(), **tol)


def test_rank_deficient(no_fallback):
    a = matrix(6, 2, dtype=torch.float64) @ matrix(2, 4, dtype=torch.float64)  # rank 2
    U, S, Vh = (t.cpu() for t in torch.linalg.svd(a.to("vulkan")))
    torch.testing.assert_close(S, torch.linalg.svdvals(a), atol=1e-10, rtol=1e-10)
    assert_orthonormal_columns(U, atol=1e-10, rtol=1e-10)
    torch.testing.assert_close(U[:, :4] * S.unsqueeze(-2) @ Vh, a, atol=1e-10, rtol=1e-10)
    zero = torch.linalg.svd(torch.zeros(3, 2, device="vulkan"))
    assert zero.S.abs().max().item() == 0
    assert_orthonormal_columns(zero.U.cpu())


@pytest.mark.parametrize("shape", [(5, 3), (3, 5)], ids=str)
def test_input_is_left_intact(shape, no_fallback):
    a = matrix(*shape, dtype=torch.float64)
    av = a.to("vulkan")
    first = torch.linalg.svd(av, full_matrices=False)
    torch.testing.assert_close(av.cpu(), a)
    for x, y in zip(torch.linalg.svd(av, full_matrices=False), first):
        torch.testing.assert_close(x, y)


def test_gradients(no_fallback):
    def f(a):
        U, S, Vh = torch.linalg.svd(a, full_matrices=False)
        return torch.cat([S.flatten(), (U * U).flatten(), (Vh * Vh).flatten()])
    assert_forward_backward_match(f, matrix(2, 5, 3, dtype=torch.float64), rtol=1e-7, atol=1e-7)


@parametrize(["linalg.svdvals", "linalg.pinv", "linalg.matrix_rank", "linalg.matrix_norm"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
