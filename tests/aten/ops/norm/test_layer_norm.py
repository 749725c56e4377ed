import pytest
import torch

from tests.opinfo import check_op, parametrize


@parametrize(["nn.functional.layer_norm"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm_backward_matches_cpu(dtype, affine, no_fallback):
    ln = torch.nn.LayerNorm((5, 37), elementwise_affine=affine).to(dtype)
    if affine:
        with torch.no_grad():
            ln.weight.uniform_()
            ln.bias.uniform_()
    x = torch.randn(4, 5, 37, dtype=dtype)
    g = torch.randn(4, 5, 37, dtype=dtype)
    lv = torch.nn.LayerNorm((5, 37), elementwise_affine=affine).to(dtype).to("vulkan")
    lv.load_state_dict(ln.state_dict())
    xv, xc = x.to("vulkan").requires_grad_(), x.clone().requires_grad_()
    yv, yc = lv(xv), ln(xc)
    torch.testing.assert_close(yv.cpu(), yc)
    params_v, params_c = [xv, *lv.parameters()], [xc, *ln.parameters()]
    for a, b in zip(torch.autograd.grad(yv, params_v, g.to("vulkan")), torch.autograd.grad(yc, params_c, g)):
        torch.testing.assert_close(a.cpu(), b)


def test_layer_norm_of_large_mean_is_stable(no_fallback):
    x = torch.randn(3, 1000, dtype=torch.float32) + 1e4
    torch.testing.assert_close(torch.nn.functional.layer_norm(x.to("vulkan"), (1000,)).cpu(),
                               torch.nn.functional.layer_norm(x, (1000,)), rtol=1e-3, atol=1e-3)


# Rows that fit in registers (up to 32 elements per invocation, 16 for
# float64) take a one-read forward, vectorized where rows, weight and bias are
# 16-byte aligned; longer rows keep the streaming kernel.
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64])
@pytest.mark.parametrize("length", [1, 7, 64, 300, 4096, 8193])
@pytest.mark.parametrize("affine", [False, True])
def test_forward_row_lengths(dtype, length, affine, no_fallback):
    x = (torch.randn(3, length + 1) * 3 + 1).to(dtype)
    w = torch.randn(length + 1).to(dtype) if affine else None
    b = torch.randn(length + 1).to(dtype) if affine else None
    tol = {torch.float16: 4e-3, torch.bfloat16: 3e-2}.get(dtype, 1e-5)
    # aligned rows, then rows (and weight and bias) starting 1 element off
    for s in [slice(0, length), slice(1, length + 1)]:
        xs = x[:, s]
        ws, bs = (w[s], b[s]) if affine else (None, None)
        expected = torch.native_layer_norm(xs, (length,), ws, bs, 1e-5)
        actual = torch.native_layer_norm(xs.to("vulkan"), (length,), ws.to("vulkan") if affine else None,
                                         bs.to("vulkan") if affine else None, 1e-5)
        for e, a in zip(expected, actual):
            torch.testing.assert_close(a.cpu(), e, rtol=tol, atol=tol)
