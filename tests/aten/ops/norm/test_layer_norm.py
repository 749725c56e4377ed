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
