"""lu_unpack and linalg.lu on the vulkan device (csrc/aten/ops/linalg/
lu_unpack.cpp), in strict mode against the CPU: the permutation matrix
exactly, L and U to rounding; batched, rectangular and empty inputs, the
unpack flags, out=, pivot=False (which the CPU lacks) and bad pivots."""

import pytest
import torch

SHAPES = [(4, 4), (2, 5, 3), (3, 3, 5), (2, 1, 4, 4), (0, 3, 3), (1, 1), (3, 0, 0)]


def close(actual, expected):
    assert actual.device.type == "vulkan" and actual.dtype == expected.dtype and actual.shape == expected.shape
    torch.testing.assert_close(actual.cpu(), expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_linalg_lu_matches_cpu(shape, dtype, no_fallback):
    torch.manual_seed(0)
    a = torch.randn(shape, dtype=dtype)
    P, L, U = torch.linalg.lu(a.to("vulkan"))
    Pc, Lc, Uc = torch.linalg.lu(a)
    assert torch.equal(P.cpu(), Pc)
    close(L, Lc)
    close(U, Uc)
    # lu_unpack of the factors, and of transposed (non-contiguous) ones.
    LU, pivots = torch.linalg.lu_factor(a.to("vulkan"))
    for factors in [LU, LU.mT.contiguous().mT]:
        P2, L2, U2 = torch.lu_unpack(factors, pivots)
        assert torch.equal(P2.cpu(), Pc)
        close(L2, Lc)
        close(U2, Uc)


def test_lu_unpack_flags_and_out(no_fallback):
    a = torch.randn(2, 4, 3, dtype=torch.float64)
    LU, pivots = torch.linalg.lu_factor(a)
    LUv, pivotsv = LU.to("vulkan"), pivots.to("vulkan")
    P, L, U = torch.lu_unpack(LUv, pivotsv, unpack_data=False)
    Pc, Lc, Uc = torch.lu_unpack(LU, pivots)
    assert torch.equal(P.cpu(), Pc) and L.numel() == 0 and U.numel() == 0
    P, L, U = torch.lu_unpack(LUv, pivotsv, unpack_pivots=False)
    assert P.numel() == 0
    close(L, Lc)
    close(U, Uc)
    outs = [torch.empty(0, dtype=torch.float64, device="vulkan") for _ in range(3)]
    torch.lu_unpack(LUv, pivotsv, out=outs)
    for actual, expected in zip(outs, (Pc, Lc, Uc)):
        close(actual, expected)
    outs = [torch.empty(0, dtype=torch.float64, device="vulkan") for _ in range(3)]
    torch.linalg.lu(a.to("vulkan"), out=outs)
    for actual, expected in zip(outs, torch.linalg.lu(a)):
        close(actual, expected)
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype"):
        torch.linalg.lu(a.to("vulkan"), out=[torch.empty(0, device="vulkan") for _ in range(3)])


def test_linalg_lu_without_pivoting(no_fallback):
    torch.manual_seed(0)
    for shape in [(4, 4), (2, 3, 5), (5, 3)]:
        a = torch.randn(shape, dtype=torch.float64) + 3 * torch.eye(*shape[-2:], dtype=torch.float64)
        P, L, U = torch.linalg.lu(a.to("vulkan"), pivot=False)
        assert P.numel() == 0
        k = min(shape[-2:])
        assert torch.equal(L.cpu().diagonal(0, -2, -1), torch.ones(*shape[:-2], k, dtype=torch.float64))
        assert torch.equal(L.cpu().triu(1), torch.zeros_like(L.cpu()))
        assert torch.equal(U.cpu().tril(-1), torch.zeros_like(U.cpu()))
        torch.testing.assert_close(L.cpu() @ U.cpu(), a)


def test_lu_unpack_errors(no_fallback):
    LU = torch.randn(3, 3, device="vulkan")
    with pytest.raises(RuntimeError, match="int32"):
        torch.lu_unpack(LU, torch.tensor([1, 2, 3], device="vulkan"))
    with pytest.raises(RuntimeError, match="float32 and float64"):
        torch.linalg.lu(torch.ones(3, 3, dtype=torch.float16, device="vulkan"))
    # A pivot outside [1, m]: reported at the next synchronization, as a device-side assert.
    P, _, _ = torch.lu_unpack(LU, torch.tensor([1, 7, 3], dtype=torch.int32, device="vulkan"))
    with pytest.raises(IndexError, match="index out of range"):
        P.cpu()
