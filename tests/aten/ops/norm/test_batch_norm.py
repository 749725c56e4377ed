import pytest
import torch
import torch.nn.functional as F

from tests.opinfo import check_op, parametrize

OPS = ["nn.functional.batch_norm", "nn.functional.instance_norm", "native_batch_norm", "_native_batch_norm_legit",
       "_batch_norm_with_update"]


# The CPU's strided path rounds every step to a 16-bit dtype ((x - mean),
# then * invstd, * w, + b), its contiguous one only the result, as the kernel
# here does: strided samples differ from the CPU by a few ulp.
STRIDED_16_BIT = {torch.float16: (5e-3, 1e-2), torch.bfloat16: (4e-2, 4e-2)}


@parametrize(OPS, variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant, STRIDED_16_BIT)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("training", [True, False])
def test_16_bit_contiguous_matches_cpu(dtype, training, no_fallback):
    x = (torch.randn(5, 4, 6) * 4 + 1).to(dtype)
    w, b = torch.randn(4).to(dtype), torch.randn(4).to(dtype)
    rm, rv = torch.randn(4).to(dtype), (torch.rand(4) + 0.5).to(dtype)
    outs_v = torch.ops.aten.native_batch_norm(*[t.to("vulkan") for t in (x, w, b, rm, rv)], training, 0.3, 0.1)
    outs_c = torch.ops.aten.native_batch_norm(x, w, b, rm.clone(), rv.clone(), training, 0.3, 0.1)
    tol = {torch.float16: (1e-3, 1e-3), torch.bfloat16: (1.6e-2, 1e-2)}[dtype]
    for a, e in zip(outs_v, outs_c):
        torch.testing.assert_close(a.cpu(), e, rtol=tol[0], atol=tol[1])


def _grads(y, inputs, g):
    return torch.autograd.grad(y, [t for t in inputs if t is not None and t.requires_grad], g)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("shape", [(6, 3), (4, 3, 7), (2, 3, 4, 5)])
def test_batch_norm_matches_cpu_with_grad(dtype, training, affine, shape, no_fallback):
    c = shape[1]
    x = torch.randn(shape, dtype=dtype)
    w = torch.rand(c, dtype=dtype) + 0.5 if affine else None
    b = torch.randn(c, dtype=dtype) if affine else None
    running = (torch.randn(c, dtype=dtype), torch.rand(c, dtype=dtype) + 0.5)
    g = torch.randn(shape, dtype=dtype)

    def run(device):
        leaf = lambda t: None if t is None else t.to(device).requires_grad_()
        xs, ws, bs = leaf(x), leaf(w), leaf(b)
        rm, rv = (t.to(device) for t in running)
        y = F.batch_norm(xs, rm, rv, ws, bs, training=training, momentum=0.3, eps=1e-4)
        return [y, rm, rv, *_grads(y, [xs, ws, bs], g.to(device))]

    for actual, expected in zip(run("vulkan"), run("cpu")):
        assert actual.device.type == "vulkan"
        torch.testing.assert_close(actual.cpu(), expected)


@pytest.mark.parametrize("momentum", [0.1, None])
def test_module_updates_running_stats(momentum, no_fallback):
    # momentum None: the cumulative average, from num_batches_tracked.
    bn = torch.nn.BatchNorm2d(3, momentum=momentum)
    bv = torch.nn.BatchNorm2d(3, momentum=momentum).to("vulkan")
    for _ in range(3):
        x = torch.randn(4, 3, 5, 5) * 3 + 2
        torch.testing.assert_close(bv(x.to("vulkan")).cpu(), bn(x))
    for name, value in bn.state_dict().items():
        torch.testing.assert_close(bv.state_dict()[name].cpu(), value)
    bn.eval(), bv.eval()
    x = torch.randn(2, 3, 5, 5)
    torch.testing.assert_close(bv(x.to("vulkan")).cpu(), bn(x))


def test_channels_last_keeps_layout_and_grads(no_fallback):
    x = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last)
    g = torch.randn(2, 3, 4, 5)
    bn = torch.nn.BatchNorm2d(3)
    bv = torch.nn.BatchNorm2d(3).to("vulkan")
    xv, xc = x.to("vulkan").requires_grad_(), x.clone().requires_grad_()
    yv, yc = bv(xv), bn(xc)
    assert yv.is_contiguous(memory_format=torch.channels_last)
    torch.testing.assert_close(yv.cpu(), yc)
    for a, e in zip(_grads(yv, [xv, *bv.parameters()], g.to("vulkan")), _grads(yc, [xc, *bn.parameters()], g)):
        torch.testing.assert_close(a.cpu(), e)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("training", [True, False])
def test_16_bit_input_with_float_parameters(dtype, training, no_fallback):
    # The CPU's mixed case: statistics and parameter gradients in float.
    x = torch.randn(8, 3, 6).to(dtype)
    w, b = torch.rand(3) + 0.5, torch.randn(3)
    rm, rv = torch.randn(3), torch.rand(3) + 0.5
    args = [w, b, rm, rv]
    outs_v = torch.ops.aten.native_batch_norm(x.to("vulkan"), *[t.to("vulkan") for t in args], training, 0.1, 1e-5)
    outs_c = torch.ops.aten.native_batch_norm(x, *[t.clone() for t in args], training, 0.1, 1e-5)
    for a, e in zip(outs_v, outs_c):
        assert a.dtype == e.dtype
        torch.testing.assert_close(a.cpu(), e, rtol=1e-2, atol=1e-2)
    g = torch.randn(8, 3, 6).to(dtype)
    mask = [True, True, True]
    back_v = torch.ops.aten.native_batch_norm_backward(g.to("vulkan"), x.to("vulkan"), w.to("vulkan"), rm.to("vulkan"),
                                                       rv.to("vulkan"), outs_v[1], outs_v[2], training, 1e-5, mask)
    back_c = torch.ops.aten.native_batch_norm_backward(g, x, w, rm, rv, outs_c[1], outs_c[2], training, 1e-5, mask)
    for a, e in zip(back_v, back_c):
        assert a.dtype == e.dtype
        torch.testing.assert_close(a.cpu(), e, rtol=2e-2, atol=2e-2)


def test_statistics_of_large_mean_are_stable(no_fallback):
    # One pass over the data (Welford) without sum(x^2) - n mean^2 cancelling.
    x = torch.randn(64, 2, 50) + 1e4
    y = F.batch_norm(x.to("vulkan"), None, None, training=True)
    torch.testing.assert_close(y.cpu(), F.batch_norm(x.double(), None, None, training=True).float(),
                               rtol=1e-3, atol=2e-3)


def test_new_backward_entry_points(no_fallback):
    # What torch.export and torch.compile graphs call.
    x = torch.randn(4, 3, 5)
    w, b, rm, rv = torch.rand(3), torch.randn(3), torch.zeros(3), torch.ones(3)
    on = lambda ts: [t.to("vulkan") for t in ts]
    out_v = torch.ops.aten._batch_norm_with_update(*on([x, w, b, rm, rv]), 0.1, 1e-5)
    out_c = torch.ops.aten._batch_norm_with_update(x, w, b, rm.clone(), rv.clone(), 0.1, 1e-5)
    for a, e in zip(out_v[:3], out_c[:3]):
        torch.testing.assert_close(a.cpu(), e)
    g = torch.randn(4, 3, 5)
    back_v = torch.ops.aten.batch_norm_backward(g.to("vulkan"), *on([x, w, rm, rv]), out_v[1], out_v[2], True, 1e-5,
                                                [True, True, True], out_v[3])
    back_c = torch.ops.aten.batch_norm_backward(g, x, w, rm, rv, out_c[1], out_c[2], True, 1e-5, [True, True, True],
                                                out_c[3])
    for a, e in zip(back_v, back_c):
        torch.testing.assert_close(a.cpu(), e)
    no_stats_v = torch.ops.aten._native_batch_norm_legit.no_stats(*on([x, w, b]), True, 0.1, 1e-5)
    no_stats_c = torch.ops.aten._native_batch_norm_legit.no_stats(x, w, b, True, 0.1, 1e-5)
    for a, e in zip(no_stats_v, no_stats_c):
        torch.testing.assert_close(a.cpu(), e)


def test_bad_arguments_raise(no_fallback):
    x = torch.randn(4, 3).to("vulkan")
    with pytest.raises(RuntimeError, match="running_mean should contain 3 elements not 2"):
        torch.ops.aten.native_batch_norm(x, None, None, torch.zeros(2).to("vulkan"),
                                         torch.ones(3).to("vulkan"), True, 0.1, 1e-5)
    with pytest.raises(RuntimeError, match="running_var"):
        torch.ops.aten.native_batch_norm(x, None, None, None, None, False, 0.1, 1e-5)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64])
@pytest.mark.parametrize("running", [True, False])
def test_batch_norm_update_stats(dtype, running, no_fallback):
    # The batch mean and biased variance per channel, and the running update.
    tol = {torch.float16: (1e-3, 1e-3), torch.bfloat16: (1.6e-2, 1e-2)}.get(dtype, (None, None))
    x = (torch.randn(5, 3, 4) * 3 + 1).to(dtype)
    stats = (torch.randn(3).to(dtype), (torch.rand(3) + 0.5).to(dtype)) if running else (None, None)
    for xs in [x, x.transpose(0, 2).contiguous().transpose(0, 2), x.unsqueeze(-1).contiguous(memory_format=torch.channels_last)]:
        rm_v, rv_v = (None if t is None else t.to("vulkan") for t in stats)
        rm_c, rv_c = (None if t is None else t.clone() for t in stats)
        actual = torch.batch_norm_update_stats(xs.to("vulkan"), rm_v, rv_v, 0.3)
        expected = torch.batch_norm_update_stats(xs, rm_c, rv_c, 0.3)
        for a, e in zip([*actual, rm_v, rv_v], [*expected, rm_c, rv_c]):
            if e is not None:
                assert a.device.type == "vulkan" and a.dtype == e.dtype
                torch.testing.assert_close(a.cpu(), e, rtol=tol[0], atol=tol[1])


def test_batch_norm_update_stats_mixed_strided_and_errors(no_fallback):
    # A 16-bit input with float statistics; a strided running mean is updated in place.
    x = torch.randn(4, 6, 3).to(torch.bfloat16)
    rm, rv = torch.randn(12)[::2], torch.rand(6) + 0.5
    rm_v, rv_v = torch.zeros(12, device="vulkan")[::2].copy_(rm.to("vulkan")), rv.to("vulkan")
    actual = torch.batch_norm_update_stats(x.to("vulkan"), rm_v, rv_v, 0.1)
    rm_c, rv_c = rm.clone(), rv.clone()
    expected = torch.batch_norm_update_stats(x, rm_c, rv_c, 0.1)
    for a, e in zip([*actual, rm_v, rv_v], [*expected, rm_c, rv_c]):
        assert a.dtype == torch.float32
        torch.testing.assert_close(a.cpu(), e)
    with pytest.raises(RuntimeError, match="at least one element"):
        torch.batch_norm_update_stats(torch.empty(0, 3, device="vulkan"), None, None, 0.1)
    with pytest.raises(RuntimeError, match="should contain 3 elements not 4"):
        torch.batch_norm_update_stats(torch.randn(2, 3, device="vulkan"), torch.zeros(4, device="vulkan"), None, 0.1)
    with pytest.raises(RuntimeError, match="parameter to have"):
        torch.batch_norm_update_stats(torch.randn(2, 3, device="vulkan"), torch.zeros(3, device="vulkan").double(),
                                      None, 0.1)
