import math

import pytest
import torch

import torchvulkan

from tests.opinfo import check_op, parametrize

OPS = ["var", ("var", "unbiased"), "std", ("std", "unbiased"), "var_mean", ("var_mean", "unbiased"), "std_mean",
       ("std_mean", "unbiased"), "nansum", "nanmean", "count_nonzero", "aminmax", "logsumexp",
       "hash_tensor"]


@parametrize(OPS, variants=["functional", "out"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


def test_var_of_a_large_mean_has_no_cancellation(no_fallback):
    # sum(x^2)/n - mean^2 would lose every digit here in float32, and even a
    # float32 running mean rounds each deviation by 10% of itself.
    g = torch.Generator().manual_seed(0)
    for n in (4096, 10**6):  # one workgroup; partials of several
        x = 1e4 + torch.randn(n, generator=g) * 1e-2
        expected = x.double().var()
        got = x.to("vulkan").var().cpu().double()
        assert abs(got - expected) / expected < 1e-5
    rows = 1e4 + torch.randn(8, 3000, generator=g) * 1e-2
    torch.testing.assert_close(rows.to("vulkan").var(1).cpu().double(), rows.double().var(1), rtol=1e-5, atol=0)
    cols = rows.t().contiguous()  # reduced along the outer dim: strided reads
    torch.testing.assert_close(cols.to("vulkan").var(0).cpu().double(), cols.double().var(0), rtol=1e-5, atol=0)


def test_long_and_outer_reductions_merge_partial_statistics(no_fallback):
    # One output over a million elements (partials over several workgroups),
    # and many outputs over an outer dim (one invocation each, split in parts).
    g = torch.Generator().manual_seed(1)
    x = torch.randn(10**6, generator=g) * 3 + 5
    var, mean = torch.var_mean(x.to("vulkan"))
    torch.testing.assert_close(var.cpu().double(), x.double().var(), rtol=1e-5, atol=0)
    torch.testing.assert_close(mean.cpu().double(), x.double().mean(), rtol=1e-5, atol=1e-6)
    y = torch.randn(3000, 1100, generator=g) + 100
    std, mean = torch.std_mean(y.to("vulkan"), 0, correction=0)
    torch.testing.assert_close(std.cpu(), y.std(0, correction=0), rtol=1e-4, atol=0)
    torch.testing.assert_close(mean.cpu(), y.mean(0))


def test_var_over_any_dims_and_corrections(no_fallback):
    x = torch.randn(3, 4, 5, 6, dtype=torch.float64)
    d = x.to("vulkan")
    for dims in [None, (0,), (1, 3), (0, 2, 3), (-1,)]:
        for correction in (0, 1, 2.5):
            for keepdim in (False, True):
                torch.testing.assert_close(d.var(dims, correction=correction, keepdim=keepdim).cpu(),
                                           x.var(dims, correction=correction, keepdim=keepdim))
                v, m = torch.std_mean(d.transpose(1, 2), dims, correction=correction, keepdim=keepdim)
                ev, em = torch.std_mean(x.transpose(1, 2), dims, correction=correction, keepdim=keepdim)
                torch.testing.assert_close(v.cpu(), ev)
                torch.testing.assert_close(m.cpu(), em)


def test_var_without_degrees_of_freedom(no_fallback):
    one = torch.tensor([3.0], device="vulkan")
    with pytest.warns(UserWarning, match="degrees of freedom"):
        assert one.var().cpu().isnan()
    with pytest.warns(UserWarning, match="degrees of freedom"):
        assert torch.tensor([1.0, 2.0], device="vulkan").var(correction=2).cpu() == math.inf
    assert torch.empty(0, 3, device="vulkan").var(0).cpu().isnan().all()
    with pytest.raises(RuntimeError, match="floating point"):
        torch.tensor([1, 2], device="vulkan").var()


def test_nan_aware_sums_and_counts(no_fallback):
    x = torch.tensor([[1.0, float("nan"), 2.0], [float("nan"), float("nan"), 0.0]])
    d = x.to("vulkan")
    torch.testing.assert_close(d.nansum(1).cpu(), x.nansum(1))
    torch.testing.assert_close(d.nanmean(1).cpu(), x.nanmean(1))
    assert torch.equal(torch.count_nonzero(d, (0, 1)).cpu(), torch.count_nonzero(x, (0, 1)))
    assert torch.equal(torch.count_nonzero(d.t(), 1).cpu(), torch.count_nonzero(x.t(), 1))
    b = torch.rand(5, 7, 3) > 0.5
    assert torch.equal(torch.count_nonzero(b.to("vulkan"), (0, 2)).cpu(), torch.count_nonzero(b, (0, 2)))


# hash_tensor xors each element's 64-bit form: for the floats, the bits of its
# float64 value, which the kernel builds in integer arithmetic (from the raw
# bits for float16 and bfloat16). Every kind of
# float32 and float16 bit pattern: NaNs with payloads and signs (a signaling
# one comes out quieted, as the CPU's conversion gives it), infinities,
# signed zeros, subnormals; then sums over partials and strided reads.
def test_hash_tensor_bits(no_fallback):
    f32 = torch.tensor([[0x7F800001, 0xFF800001 - 2**32, 0x7FC00001, 0x7F800000, 0x80000000 - 2**32, 1, 0x807FFFFF - 2**32,
                         0x00400000, 0x3F800000]], dtype=torch.int32).view(torch.float32)
    f16 = torch.tensor([[0x7C01, 0xFC01 - 2**16, 0x7E01, 0x0001, 0x8200 - 2**16, 0x3C00, 0x7C00, 0xFBFF - 2**16]],
                       dtype=torch.int16).view(torch.float16)
    for x in (f32, f16, f32.bfloat16(), f32.double()):
        assert torch.equal(torch.hash_tensor(x.to("vulkan"), dim=0).cpu(), torch.hash_tensor(x, dim=0))
    g = torch.Generator().manual_seed(0)
    for x in (torch.randn(300000, generator=g), torch.randn(64, 300, generator=g).t(),
              torch.randint(-2**40, 2**40, (7, 900), generator=g)):
        for dims in ([], [0], [-1]):
            assert torch.equal(torch.hash_tensor(x.to("vulkan"), dim=dims).cpu(), torch.hash_tensor(x, dim=dims))
    with pytest.raises(RuntimeError, match="Unknown hash_tensor mode: 1"):
        torch.hash_tensor(torch.ones(3, device="vulkan"), mode=1)


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_complex_statistics_match_cpu(dtype, no_fallback):
    # The real parts' variance plus the imaginary parts', as PyTorch defines it;
    # var_mean's mean stays complex.
    if dtype == torch.complex128 and not torchvulkan.get_device_properties(0).float64:
        pytest.skip("no float64 on this device")
    x = torch.randn(6, 7, dtype=dtype)
    d = x.to("vulkan")
    for kwargs in [{}, {"dim": 1}, {"dim": (0, 1), "correction": 0, "keepdim": True}, {"dim": 0, "correction": 2}]:
        for op in (torch.var, torch.std):
            got = op(d, **kwargs)
            assert got.dtype == op(x, **kwargs).dtype
            torch.testing.assert_close(got.cpu(), op(x, **kwargs), msg=lambda m: f"{op.__name__} {kwargs}\n{m}")
        for op in (torch.var_mean, torch.std_mean):
            for g, e in zip(op(d, **kwargs), op(x, **kwargs)):
                assert g.dtype == e.dtype
                torch.testing.assert_close(g.cpu(), e, msg=lambda m: f"{op.__name__} {kwargs}\n{m}")
    out = torch.empty(0, dtype=x.real.dtype, device="vulkan")
    torch.var(d[:, ::2], 0, out=out)
    torch.testing.assert_close(out.cpu(), torch.var(x[:, ::2], 0))
