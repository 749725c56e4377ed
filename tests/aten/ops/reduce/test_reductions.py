import torch

from tests.opinfo import check_op, parametrize

OPS = ["sum", "mean", "prod", "amax", "amin", "any", "all", "argmax", "argmin", ("max", "reduction_with_dim"),
       ("max", "reduction_no_dim"), ("min", "reduction_with_dim"), ("min", "reduction_no_dim")]


@parametrize(OPS, variants=["functional", "out"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


def test_sum_of_ten_million_floats_is_accurate(no_fallback):
    x = torch.rand(10**7, generator=torch.Generator().manual_seed(0))
    got = x.to("vulkan").sum().cpu().double()
    exact = x.double().sum()
    assert abs(got - exact) / exact < 1e-6


def test_reduction_over_every_dim_set(no_fallback):
    x = torch.randn(3, 4, 5, 6)
    d = x.to("vulkan")
    for dims in [(0,), (1, 3), (0, 2, 3), (3,), (0, 1, 2, 3)]:
        for keepdim in (False, True):
            torch.testing.assert_close(d.sum(dims, keepdim=keepdim).cpu(), x.sum(dims, keepdim=keepdim))
            torch.testing.assert_close(d.amax(dims, keepdim=keepdim).cpu(), x.amax(dims, keepdim=keepdim))
            torch.testing.assert_close(d.mean(dims, keepdim=keepdim).cpu(), x.mean(dims, keepdim=keepdim))


def test_reduction_of_transposed_and_sliced_inputs(no_fallback):
    x = torch.randn(64, 48)
    d = x.to("vulkan")
    torch.testing.assert_close(d.t().sum(1).cpu(), x.t().sum(1))
    torch.testing.assert_close(d[::3, 1::2].sum(0).cpu(), x[::3, 1::2].sum(0))
    torch.testing.assert_close(d.t()[5:].amin(0).cpu(), x.t()[5:].amin(0))


def test_nan_propagates_through_max_and_sum(no_fallback):
    x = torch.tensor([1.0, float("nan"), -2.0])
    d = x.to("vulkan")
    assert d.amax().cpu().isnan() and d.amin().cpu().isnan() and d.sum().cpu().isnan()


def test_empty_reductions(no_fallback):
    e = torch.empty(0, 3, device="vulkan")
    assert torch.equal(e.sum(0).cpu(), torch.zeros(3))
    assert torch.equal(e.prod(0).cpu(), torch.ones(3))
    assert e.mean(0).cpu().isnan().all()


def test_deprecated_aminmax_names(no_fallback):
    x = torch.randn(3, 5)
    d = x.to("vulkan")
    for got, expected in [(torch.ops.aten._aminmax(d), torch.ops.aten._aminmax(x)),
                          (torch.ops.aten._aminmax.dim(d, 1), torch.ops.aten._aminmax.dim(x, 1)),
                          (torch.ops.aten._aminmax.dim(d, 0, True), torch.ops.aten._aminmax.dim(x, 0, True))]:
        torch.testing.assert_close(got[0].cpu(), expected[0])
        torch.testing.assert_close(got[1].cpu(), expected[1])
