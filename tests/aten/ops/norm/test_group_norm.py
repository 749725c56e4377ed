import pytest
import torch
import torch.nn.functional as F

from tests.opinfo import check_op, parametrize


# Not the native_group_norm OpInfo: the CPU rejects its strided samples,
# which reach the device as contiguous copies (check_op's .to("vulkan")).
@parametrize(["nn.functional.group_norm"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


def test_strided_input_is_rejected_as_on_the_cpu(no_fallback):
    x = torch.randn(2, 6, 8)
    for strided in (x[:, :, ::2], x.to("vulkan")[:, :, ::2]):
        with pytest.raises(RuntimeError, match="is_contiguous"):
            torch.ops.aten.native_group_norm(strided, None, None, 2, 6, 4, 3, 1e-5)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("shape,groups", [((3, 6), 3), ((2, 6, 7), 2), ((2, 4, 3, 5), 4), ((1, 6, 2, 2, 3), 1)])
def test_group_norm_matches_cpu_with_grad(dtype, affine, shape, groups, no_fallback):
    c = shape[1]
    x = torch.randn(shape, dtype=dtype)
    w = torch.rand(c, dtype=dtype) + 0.5 if affine else None
    b = torch.randn(c, dtype=dtype) if affine else None
    g = torch.randn(shape, dtype=dtype)

    def run(device):
        leaves = [None if t is None else t.to(device).requires_grad_() for t in (x, w, b)]
        y = F.group_norm(leaves[0], groups, leaves[1], leaves[2], eps=1e-4)
        return [y, *torch.autograd.grad(y, [t for t in leaves if t is not None], g.to(device))]

    # Groups of two elements: the input gradient cancels to a few float ulp.
    tol = {"rtol": 1e-4, "atol": 1e-4} if dtype == torch.float32 else {}
    for actual, expected in zip(run("vulkan"), run("cpu")):
        assert actual.device.type == "vulkan"
        torch.testing.assert_close(actual.cpu(), expected, **tol)


def test_channels_last(no_fallback):
    x = torch.randn(2, 4, 3, 5).to(memory_format=torch.channels_last)
    g = torch.randn(2, 4, 3, 5)
    gn = torch.nn.GroupNorm(2, 4)
    with torch.no_grad():
        gn.weight.uniform_(0.5, 1.5), gn.bias.uniform_()
    gv = torch.nn.GroupNorm(2, 4).to("vulkan")
    gv.load_state_dict(gn.state_dict())
    xv, xc = x.to("vulkan").requires_grad_(), x.clone().requires_grad_()
    yv, yc = gv(xv), gn(xc)
    torch.testing.assert_close(yv.cpu(), yc)
    grads_v = torch.autograd.grad(yv, [xv, *gv.parameters()], g.to("vulkan"))
    grads_c = torch.autograd.grad(yc, [xc, *gn.parameters()], g)
    for a, e in zip(grads_v, grads_c):
        torch.testing.assert_close(a.cpu(), e)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_16_bit_input_with_float_parameters(dtype, no_fallback):
    x = torch.randn(2, 6, 5).to(dtype)
    w, b = torch.rand(6) + 0.5, torch.randn(6)
    out_v = torch.ops.aten.native_group_norm(x.to("vulkan"), w.to("vulkan"), b.to("vulkan"), 2, 6, 5, 3, 1e-5)
    out_c = torch.ops.aten.native_group_norm(x, w, b, 2, 6, 5, 3, 1e-5)
    for a, e in zip(out_v, out_c):
        assert a.dtype == e.dtype
        torch.testing.assert_close(a.cpu(), e, rtol=1e-2, atol=1e-2)
    g = torch.randn(2, 6, 5).to(dtype)
    back_v = torch.ops.aten.native_group_norm_backward(g.to("vulkan"), x.to("vulkan"), out_v[1], out_v[2],
                                                       w.to("vulkan"), 2, 6, 5, 3, [True, True, True])
    back_c = torch.ops.aten.native_group_norm_backward(g, x, out_c[1], out_c[2], w, 2, 6, 5, 3, [True, True, True])
    for a, e in zip(back_v, back_c):
        assert a.dtype == e.dtype
        torch.testing.assert_close(a.cpu(), e, rtol=2e-2, atol=2e-2)


def test_statistics_of_large_mean_are_stable(no_fallback):
    x = torch.randn(2, 4, 300) + 1e4
    torch.testing.assert_close(F.group_norm(x.to("vulkan"), 2).cpu(), F.group_norm(x.double(), 2).float(),
                               rtol=1e-3, atol=2e-3)


def test_channels_not_divisible_raise(no_fallback):
    with pytest.raises(RuntimeError, match="divisible by num_groups"):
        F.group_norm(torch.randn(2, 6, 3).to("vulkan"), 4)
