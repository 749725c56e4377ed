import pytest
import torch

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
