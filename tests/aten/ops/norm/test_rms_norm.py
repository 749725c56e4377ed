import pytest
import torch
import torch.nn.functional as F

from tests.opinfo import check_op, parametrize


@parametrize(["nn.functional.rms_norm"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


def test_rms_norm_reaches_the_fused_kernel(no_fallback):
    # rms_norm calls _fused_rms_norm on every device; here it has a kernel of its own.
    x = torch.randn(3, 8).to("vulkan")
    out, rstd = torch.ops.aten._fused_rms_norm(x, [8], None, None)
    assert rstd.shape == (3, 1) and rstd.dtype == torch.float32
    torch.testing.assert_close(rstd.cpu(), torch.rsqrt(x.cpu().pow(2).mean(-1, keepdim=True) + torch.finfo().eps))
    torch.testing.assert_close(out.cpu(), F.rms_norm(x.cpu(), (8,)))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64])
@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("eps", [None, 1e-3])
def test_rms_norm_matches_cpu_with_grad(dtype, weighted, eps, no_fallback):
    x = torch.randn(4, 5, 33).to(dtype)
    w = (torch.rand(5, 33) + 0.5).to(dtype) if weighted else None
    g = torch.randn(4, 5, 33).to(dtype)

    def run(device):
        leaves = [None if t is None else t.to(device).requires_grad_() for t in (x, w)]
        y = F.rms_norm(leaves[0], (5, 33), leaves[1], eps)
        return [y, *torch.autograd.grad(y, [t for t in leaves if t is not None], g.to(device))]

    tol = {} if dtype in (torch.float32, torch.float64) else {"rtol": 2e-2, "atol": 2e-2}
    for actual, expected in zip(run("vulkan"), run("cpu")):
        assert actual.device.type == "vulkan" and actual.dtype == expected.dtype
        torch.testing.assert_close(actual.cpu(), expected, **tol)


def test_bad_shape_raises(no_fallback):
    with pytest.raises(RuntimeError, match="normalized_shape"):
        F.rms_norm(torch.randn(2, 4).to("vulkan"), (5,))
