"""QR on the vulkan device (csrc/aten/ops/linalg/qr.cpp), in strict mode
against the CPU's LAPACK: linalg.qr in its three modes on tall, wide,
square, batched and strided matrices, geqrf's reflectors and tau,
householder_product (orgqr), ormqr, zero columns (tau = 0), gradients, and OpInfo
samples."""

import pytest
import torch

from tests.helpers import assert_forward_backward_match
from tests.opinfo import check_op, parametrize

SHAPES = [(1, 1), (5, 3), (3, 5), (4, 4), (2, 6, 4), (2, 1, 3, 5), (0, 3, 2), (40, 7)]


def matrix(*shape, dtype=torch.float32):
    torch.manual_seed(0)
    return torch.randn(*shape, dtype=dtype)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_qr_matches_cpu(shape, mode, dtype, no_fallback):
    a = matrix(*shape, dtype=dtype)
    Q, R = torch.linalg.qr(a, mode=mode)
    Qv, Rv = torch.linalg.qr(a.to("vulkan"), mode=mode)
    tol = dict(rtol=1e-4, atol=1e-5) if dtype == torch.float32 else {}
    torch.testing.assert_close(Rv.cpu(), R, **tol)
    torch.testing.assert_close(Qv.cpu(), Q, **tol)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)], ids=str)
def test_geqrf_and_householder_product(shape, no_fallback):
    a = matrix(*shape, dtype=torch.float64)
    a[..., 1] = 0  # a zero column below the diagonal gives tau = 0 (H = I) at some step
    qr, tau = torch.geqrf(a)
    qrv, tauv = torch.geqrf(a.to("vulkan"))
    torch.testing.assert_close(qrv.cpu(), qr)
    torch.testing.assert_close(tauv.cpu(), tau)
    k = min(shape[-2], shape[-1])
    reflectors = qr[..., :, :k]
    torch.testing.assert_close(torch.linalg.householder_product(reflectors.to("vulkan"), tau.to("vulkan")).cpu(),
                               torch.linalg.householder_product(reflectors, tau))
    # Fewer reflectors than columns: the rest start as the identity's columns.
    wide = qr[..., :, :k]
    torch.testing.assert_close(torch.linalg.householder_product(wide.to("vulkan"), tau[..., :1].to("vulkan")).cpu(),
                               torch.linalg.householder_product(wide, tau[..., :1]))


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
def test_ormqr(left, transpose, no_fallback):
    qr, tau = torch.geqrf(matrix(2, 5, 3, dtype=torch.float64))
    other = matrix(2, 5, 4, dtype=torch.float64) if left else matrix(2, 4, 5, dtype=torch.float64)
    expected = torch.ormqr(qr, tau, other, left=left, transpose=transpose)
    actual = torch.ormqr(qr.to("vulkan"), tau.to("vulkan"), other.to("vulkan"), left=left, transpose=transpose)
    torch.testing.assert_close(actual.cpu(), expected)


def test_strided_input_and_out(no_fallback):
    a = matrix(6, 8)[:, ::2]  # non-contiguous columns
    Q, R = torch.linalg.qr(a)
    Qv, Rv = torch.empty(0, device="vulkan"), torch.empty(0, device="vulkan")
    torch.linalg.qr(a.to("vulkan"), out=(Qv, Rv))
    torch.testing.assert_close(Qv.cpu(), Q, rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(Rv.cpu(), R, rtol=1e-4, atol=1e-5)


def test_gradients(no_fallback):
    assert_forward_backward_match(lambda a: torch.linalg.qr(a).Q.sum(0) + torch.linalg.qr(a).R.sum(1),
                                  matrix(5, 3, dtype=torch.float64))


def test_integer_input_raises(no_fallback):
    with pytest.raises(RuntimeError):
        torch.linalg.qr(torch.ones(3, 3, dtype=torch.int64, device="vulkan"))


@parametrize(["linalg.qr", "geqrf", "linalg.householder_product", "ormqr"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
