"""linalg.lstsq on the vulkan device (csrc/aten/ops/linalg/lstsq.cpp), in
strict mode against the CPU's LAPACK: the default driver (gelsy there, SVD
here) on tall, wide, square, batched, broadcast and rank-deficient systems
with its rank; gels (QR) with its residuals; LAPACK's quick return on empty
systems; gradients; and OpInfo samples."""

import pytest
import torch

from tests.helpers import assert_forward_backward_match
from tests.opinfo import check_op, parametrize

SYSTEMS = [((5, 3), (5, 2)), ((3, 5), (3, 2)), ((4, 4), (4, 3)), ((2, 6, 4), (2, 6, 1)),
           ((2, 5, 3), (1, 5, 2)), ((40, 7), (40, 3))]


def system(shape_a, shape_b, dtype=torch.float64):
    torch.manual_seed(0)
    return torch.randn(*shape_a, dtype=dtype), torch.randn(*shape_b, dtype=dtype)


def lstsq_both(a, b, **kwargs):
    return torch.linalg.lstsq(a, b, **kwargs), torch.linalg.lstsq(a.to("vulkan"), b.to("vulkan"), **kwargs)


@pytest.mark.parametrize("shapes", SYSTEMS, ids=str)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_default_driver_matches_cpu(shapes, dtype, no_fallback):
    expected, actual = lstsq_both(*system(*shapes, dtype=dtype))
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == torch.float32 else {}
    torch.testing.assert_close(actual.solution.cpu(), expected.solution, **tol)
    torch.testing.assert_close(actual.rank.cpu(), expected.rank)
    assert actual.residuals.numel() == expected.residuals.numel() == 0  # gelsy computes none


@pytest.mark.parametrize("shapes", SYSTEMS, ids=str)
def test_gels_matches_cpu(shapes, no_fallback):
    expected, actual = lstsq_both(*system(*shapes), driver="gels")
    torch.testing.assert_close(actual.solution.cpu(), expected.solution)
    torch.testing.assert_close(actual.residuals.cpu(), expected.residuals)  # Q^T b's tail, for tall A
    if shapes[0][-2] > shapes[0][-1]:
        assert actual.residuals.numel() > 0


@pytest.mark.parametrize("rcond", [None, 0.3])
def test_rank_deficient_minimum_norm(rcond, no_fallback):
    # Singular values 10, 1, 0, 0: rank 2, or 1 below rcond 0.3, with
    # margins wide enough that gelsy's condition estimate agrees with the
    # SVD's count (rcond 0.5 on random factors did not, with MKL's gelsy).
    torch.manual_seed(0)
    u, _ = torch.linalg.qr(torch.randn(6, 6, dtype=torch.float64))
    v, _ = torch.linalg.qr(torch.randn(4, 4, dtype=torch.float64))
    a = u[:, :4] @ torch.diag(torch.tensor([10.0, 1.0, 0.0, 0.0], dtype=torch.float64)) @ v.T
    b = torch.randn(6, 2, dtype=torch.float64)
    expected, actual = lstsq_both(a, b, rcond=rcond)
    assert actual.rank.item() == expected.rank.item() == (2 if rcond is None else 1)
    # Truncated below the numerical rank, gelsy's pivoted-QR solution is not
    # the SVD's: compare with gelsd, the CPU's SVD driver, which this follows.
    svd_solution = torch.linalg.lstsq(a, b, rcond=rcond, driver="gelsd").solution
    torch.testing.assert_close(actual.solution.cpu(), svd_solution)


def test_gels_reports_an_exactly_singular_r(no_fallback):
    a = torch.zeros(4, 3, dtype=torch.float64, device="vulkan")
    a[:, 0] = 1
    with pytest.raises(torch.linalg.LinAlgError, match="full rank"):
        torch.linalg.lstsq(a, torch.ones(4, 1, dtype=torch.float64, device="vulkan"), driver="gels")


@pytest.mark.parametrize("shapes", [((0, 3), (0, 2)), ((3, 0), (3, 2)), ((2, 0, 4, 4), (2, 0, 4, 1)),
                                    ((2, 3, 4), (2, 3, 0))], ids=str)
@pytest.mark.parametrize("driver", [None, "gels"])
def test_empty_systems(shapes, driver, no_fallback):
    expected, actual = lstsq_both(*system(*shapes), driver=driver)
    for e, a in zip(expected, actual):
        torch.testing.assert_close(a.cpu(), e)


def test_other_drivers_are_refused_as_on_cuda(no_fallback):
    a, b = system((5, 3), (5, 2))
    with pytest.raises(RuntimeError, match="gels"):
        torch.linalg.lstsq(a.to("vulkan"), b.to("vulkan"), driver="gelsd")


def test_gradients(no_fallback):
    a, b = system((5, 3), (5, 2))
    assert_forward_backward_match(lambda a, b: torch.linalg.lstsq(a, b).solution, a, b)


@parametrize(["linalg.lstsq"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant, keep=lambda sample: sample.kwargs.get("driver") in (None, "gels"))
