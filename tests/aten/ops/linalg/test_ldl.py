"""The LDL^T factorization and its solve on the vulkan device
(csrc/aten/ops/linalg/ldl.cpp), in strict mode against the CPU's LAPACK
(sytrf / sytrs): the same pivots (1x1 and 2x2, with and without swaps) and
factors, zero columns (info), broadcast solves, errors and OpInfo samples."""

import re

import pytest
import torch

from tests.helpers import assert_factor_into_strided_outputs
from tests.opinfo import check_op, parametrize


def symmetric(shape, dtype, kind):
    torch.manual_seed(0)
    a = torch.randn(shape, dtype=torch.float64)
    a = a + a.mT
    if kind == "zero diagonal":  # every pivot 2x2
        a.diagonal(dim1=-2, dim2=-1).zero_()
    elif kind == "zero column":  # no pivot at the first column: info = 1
        a[..., 0, :] = 0
        a[..., :, 0] = 0
    return a.to(dtype)


# 33 and 70 rows: more rows than a workgroup's first subgroup; the 70-row
# trailing blocks share their updates among the invocations.
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (5, 5), (3, 8, 8), (33, 33), (2, 70, 70), (0, 4, 4)], ids=str)
@pytest.mark.parametrize("kind", ["random", "zero diagonal", "zero column"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_ldl_factor_matches_cpu(shape, kind, dtype, no_fallback):
    a = symmetric(shape, dtype, kind)
    LD, pivots, info = torch.linalg.ldl_factor_ex(a)
    LDv, pivotsv, infov = torch.linalg.ldl_factor_ex(a.to("vulkan"))
    assert torch.equal(pivotsv.cpu(), pivots) and torch.equal(infov.cpu(), info)
    torch.testing.assert_close(LDv.cpu(), LD, rtol=1e-4, atol=1e-5)
    if kind != "zero column" and a.numel() > 0:
        b = torch.randn(*shape[:-1], 3, dtype=dtype)
        x = torch.linalg.ldl_solve(LDv, pivotsv, b.to("vulkan")).cpu()
        torch.testing.assert_close(x, torch.linalg.ldl_solve(LD, pivots, b), rtol=1e-3, atol=1e-3)


def test_ldl_factor_into_strided_outputs(no_fallback):
    a = symmetric((3, 6, 6), torch.float64, "zero diagonal")
    assert_factor_into_strided_outputs(torch.linalg.ldl_factor_ex, a)


def test_ldl_solve_broadcasts_and_writes_out(no_fallback):
    a = symmetric((6, 6), torch.float64, "random")
    LD, pivots = torch.linalg.ldl_factor(a)
    b = torch.randn(2, 3, 6, 4, dtype=torch.float64)
    x = torch.linalg.ldl_solve(LD.to("vulkan"), pivots.to("vulkan"), b.to("vulkan"))
    torch.testing.assert_close(x.cpu(), torch.linalg.ldl_solve(LD, pivots, b))
    torch.testing.assert_close(a @ x.cpu(), b)
    out = torch.empty(0, dtype=torch.float64, device="vulkan")
    torch.linalg.ldl_solve(LD.to("vulkan"), pivots.to("vulkan"), b.to("vulkan"), out=out)
    torch.testing.assert_close(out.cpu(), x.cpu())


def test_ldl_errors_match_cpu(no_fallback):
    # A zero column: info = 1, which PyTorch's own check reports as an
    # unknown error code, on the CPU too.
    a = symmetric((4, 4), torch.float32, "zero column")
    with pytest.raises(RuntimeError) as cpu:
        torch.linalg.ldl_factor(a)
    with pytest.raises(RuntimeError, match=re.escape(str(cpu.value).split("\n")[0])):
        torch.linalg.ldl_factor(a.to("vulkan"))
    with pytest.raises(RuntimeError, match="must be batches of square matrices"):
        torch.linalg.ldl_factor(torch.randn(3, 4, device="vulkan"))
    with pytest.raises(RuntimeError, match="float32 and float64"):
        torch.linalg.ldl_factor(torch.eye(3, dtype=torch.float16, device="vulkan"))


@parametrize(["linalg.ldl_factor", "linalg.ldl_factor_ex", "linalg.ldl_solve"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
