import pytest
import torch

from tests.helpers import kernels_of
from tests.opinfo import check_op, parametrize

OPS = ["softmax", ("softmax", "with_dtype"), "log_softmax", ("log_softmax", "with_dtype"), "_softmax_backward_data"]


@parametrize(OPS, variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


@pytest.mark.parametrize("fn", [torch.softmax, torch.log_softmax])
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_backward_matches_cpu(fn, dim, dtype, no_fallback):
    x = torch.randn(6, 40, 3, dtype=dtype)
    g = torch.randn_like(x)
    xv = x.to("vulkan").requires_grad_()
    xc = x.clone().requires_grad_()
    (gv,) = torch.autograd.grad(fn(xv, dim), xv, g.to("vulkan"))
    (gc,) = torch.autograd.grad(fn(xc, dim), xc, g)
    tol = 1e-5 if dtype == torch.float32 else 2e-2
    torch.testing.assert_close(gv.cpu(), gc, rtol=tol, atol=tol)


def test_softmax_of_long_rows_and_extreme_values(no_fallback):
    x = torch.randn(3, 5000) * 50
    x[0, 7] = 1e4
    torch.testing.assert_close(torch.softmax(x.to("vulkan"), -1).cpu(), torch.softmax(x, -1))
    torch.testing.assert_close(torch.log_softmax(x.to("vulkan"), -1).cpu(), torch.log_softmax(x, -1))


# Rows along the last dim: up to 16 elements one invocation a row
# (short_rows.comp), then held in registers up to 32 elements per invocation
# of a 256-wide workgroup (16 for float64), streamed in two passes beyond;
# vector accesses where rows are 16-byte aligned, single elements otherwise.
LAST_DIM_LENGTHS = [1, 7, 16, 17, 64, 300, 4096, 8193]


@pytest.mark.parametrize("length", [16, 17])
def test_short_rows_take_one_invocation_a_row(length, no_fallback):
    x = torch.randn(128, length, device="vulkan")
    kernel = "softmax_short" if length <= 16 else "softmax_last"
    assert kernels_of(lambda: torch.log_softmax(x, -1)) == [f"{kernel}.log_softmax.f32"]


def _tol(dtype):
    return {torch.float16: 2e-3, torch.bfloat16: 1.6e-2}.get(dtype, 1e-5)


@pytest.mark.parametrize("fn", [torch.softmax, torch.log_softmax])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64])
@pytest.mark.parametrize("length", LAST_DIM_LENGTHS)
def test_last_dim(fn, dtype, length, no_fallback):
    x = (torch.randn(3, length + 1) * 4).to(dtype)
    tol = _tol(dtype)
    for xc in [x[:, :length].contiguous(), x[:, 1:]]:  # aligned rows, then rows starting off 16 bytes
        torch.testing.assert_close(fn(xc.to("vulkan"), -1).cpu(), fn(xc, -1), rtol=tol, atol=tol)


@pytest.mark.parametrize("fn", [torch.softmax, torch.log_softmax])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("length", LAST_DIM_LENGTHS)
def test_last_dim_backward(fn, dtype, length, no_fallback):
    x = torch.randn(2, length, dtype=dtype)
    g = torch.randn_like(x)
    xv = x.to("vulkan").requires_grad_()
    xc = x.clone().requires_grad_()
    (gv,) = torch.autograd.grad(fn(xv, -1), xv, g.to("vulkan"))
    (gc,) = torch.autograd.grad(fn(xc, -1), xc, g)
    tol = 2e-2 if dtype == torch.bfloat16 else 1e-4
    torch.testing.assert_close(gv.cpu(), gc, rtol=tol, atol=tol)


@pytest.mark.parametrize("fn", [torch.softmax, torch.log_softmax])
@pytest.mark.parametrize("length", [10, 40, 9000])
def test_last_dim_infinities_and_nan(fn, length, no_fallback):
    x = torch.randn(6, length)
    x[0] = float("-inf")                        # all -inf: NaN, as on the CPU
    x[1, ::3] = float("-inf")                   # some -inf: zero probability
    x[2, 5] = float("inf")
    x[3, 7] = float("nan")
    x[4, : length // 2] = float("-inf")         # leading -inf (the online sum starts late)
    expected = fn(x, -1)
    torch.testing.assert_close(fn(x.to("vulkan"), -1).cpu(), expected, equal_nan=True)


def test_last_dim_empty(no_fallback):
    for shape in [(0, 5), (3, 0)]:
        x = torch.randn(shape)
        assert torch.softmax(x.to("vulkan"), -1).shape == shape
