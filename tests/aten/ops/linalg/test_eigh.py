"""linalg.eigh and eigvalsh on the vulkan device (csrc/aten/ops/linalg/
eigh.cpp), in strict mode against the CPU's LAPACK: eigenvalues (ascending),
eigenvectors up to sign (orthonormal, A V = V diag(w), V * V against the
CPU's), either triangle, batches, sizes odd and even, gradients of
sign-invariant functions, and OpInfo samples."""

import pytest
import torch

from tests.helpers import assert_forward_backward_match
from tests.opinfo import check_op, parametrize


def symmetric(*shape, dtype=torch.float32):
    torch.manual_seed(0)
    a = torch.randn(*shape, dtype=torch.float64)
    return (a + a.mT).to(dtype)


# Odd sizes in batches too: each matrix's rotation scratch must not reach the next one's.
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (5, 5), (8, 8), (3, 7, 7), (9, 5, 5), (2, 2, 4, 4), (0, 3, 3),
                                   (33, 33)],
                         ids=str)
@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_matches_cpu(shape, uplo, dtype, no_fallback):
    a = symmetric(*shape, dtype=dtype)
    a = a + torch.randn(shape, dtype=dtype).triu(1)  # the other triangle must be ignored
    if uplo == "U":
        a = a.mT.contiguous()
    w, V = torch.linalg.eigh(a, UPLO=uplo)
    wv, Vv = torch.linalg.eigh(a.to("vulkan"), UPLO=uplo)
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == torch.float32 else dict(rtol=1e-10, atol=1e-10)
    torch.testing.assert_close(wv.cpu(), w, **tol)
    torch.testing.assert_close(torch.linalg.eigvalsh(a.to("vulkan"), UPLO=uplo).cpu(), w, **tol)
    Vv = Vv.cpu()
    eye = torch.eye(shape[-1], dtype=dtype).expand_as(Vv)
    torch.testing.assert_close(Vv.mT @ Vv, eye, **tol)
    sym = w.new_zeros(a.shape) if a.numel() == 0 else (a.tril() + a.tril(-1).mT if uplo == "L" else a.triu() + a.triu(1).mT)
    torch.testing.assert_close(sym @ Vv, Vv * wv.cpu().unsqueeze(-2), **tol)
    torch.testing.assert_close(Vv * Vv, V * V, **tol)  # distinct eigenvalues: unique up to sign


def test_repeated_eigenvalues(no_fallback):
    a = torch.diag(torch.tensor([2.0, 1.0, 2.0, -3.0], dtype=torch.float64))
    w, V = torch.linalg.eigh(a.to("vulkan"))
    torch.testing.assert_close(w.cpu(), torch.tensor([-3.0, 1.0, 2.0, 2.0], dtype=torch.float64))
    torch.testing.assert_close(a @ V.cpu(), V.cpu() * w.cpu())


def test_gradients(no_fallback):
    def f(a):
        w, V = torch.linalg.eigh((a + a.mT) / 2)
        return torch.cat([w.flatten(), (V * V).flatten()])
    assert_forward_backward_match(f, symmetric(2, 5, 5, dtype=torch.float64), rtol=1e-7, atol=1e-7)


@parametrize(["linalg.eigvalsh"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
