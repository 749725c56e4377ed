import pytest
import torch
import torch.nn.functional as F

from tests.opinfo import check_op, parametrize

OPS = ["nn.functional.mse_loss", "nn.functional.l1_loss", "nn.functional.smooth_l1_loss",
       "nn.functional.huber_loss", "nn.functional.binary_cross_entropy",
       "nn.functional.binary_cross_entropy_with_logits", "nn.functional.kl_div", "nn.functional.cross_entropy"]
REDUCTIONS = ["none", "mean", "sum"]


@parametrize(OPS, variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


def _check_with_grad(fn, inputs, differentiable, dtype, tol=None):
    """fn(*inputs) on the device and on the CPU: the values and the gradients
    of the `differentiable` inputs (indices) for a random output gradient."""
    tol = tol or {}

    def run(device):
        args = [t.detach().clone().to(device) if isinstance(t, torch.Tensor) else t for t in inputs]
        for i in differentiable:
            args[i].requires_grad_()
        y = fn(*args)
        if not differentiable:
            return [y]
        torch.manual_seed(0)
        g = torch.rand(y.shape, dtype=y.dtype).to(device)
        return [y, *torch.autograd.grad(y, [args[i] for i in differentiable], g)]

    for actual, expected in zip(run("vulkan"), run("cpu")):
        assert actual.device.type == "vulkan" and actual.dtype == expected.dtype
        torch.testing.assert_close(actual.cpu(), expected, **tol)


DTYPES = [torch.float32, torch.float64]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name,kwargs", [("mse_loss", {}), ("l1_loss", {}), ("smooth_l1_loss", {"beta": 0.5}),
                                         ("smooth_l1_loss", {"beta": 0.0}), ("huber_loss", {"delta": 0.7})])
def test_regression_losses(name, kwargs, reduction, dtype, no_fallback):
    x, y = torch.randn(4, 7, dtype=dtype), torch.randn(4, 7, dtype=dtype)
    x[0, :3] = y[0, :3]  # zero differences: the kinks of l1 and smooth_l1
    fn = lambda a, b: getattr(F, name)(a, b, reduction=reduction, **kwargs)
    _check_with_grad(fn, [x, y], [0, 1], dtype)


def test_regression_losses_broadcast_and_promote(no_fallback):
    x, y = torch.randn(3, 4), torch.randn(4)
    with pytest.warns(UserWarning, match="target size"):
        _check_with_grad(lambda a, b: F.mse_loss(a, b, reduction="none"), [x, y], [0, 1], torch.float32)
    # Inputs of two dtypes, and an out= wider than both.
    y = y.double()
    for name in ["mse_loss", "smooth_l1_loss", "huber_loss"]:
        fn = getattr(torch._C._nn, name)
        for reduction in range(3):
            torch.testing.assert_close(fn(x[0].to("vulkan"), y.to("vulkan"), reduction).cpu(), fn(x[0], y, reduction))
        out = torch.empty(4, device="vulkan", dtype=torch.float64)
        assert fn(x[0].to("vulkan"), x[1].to("vulkan"), 0, out=out) is out
        torch.testing.assert_close(out.cpu(), fn(x[0], x[1], 0).double())


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("name", ["mse_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy"])
def test_16_bit_losses(name, dtype, no_fallback):
    x = torch.rand(5, 6).to(dtype)
    y = torch.rand(5, 6).to(dtype)
    for reduction in REDUCTIONS:
        fn = lambda a, b: getattr(F, name)(a, b, reduction=reduction)
        _check_with_grad(fn, [x, y], [0], dtype, {"rtol": 2e-2, "atol": 2e-2})


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_binary_cross_entropy(reduction, weighted, dtype, no_fallback):
    x = torch.rand(4, 5, dtype=dtype).clamp(0.05, 0.95)
    x[0, 0], x[0, 1] = 0.0, 1.0  # the clamped logs
    t = torch.rand(4, 5, dtype=dtype)
    w = torch.rand(5, dtype=dtype) if weighted else None
    fn = lambda a, b, c: F.binary_cross_entropy(a, b, c, reduction=reduction)
    _check_with_grad(fn, [x, t, w], [], dtype)
    x[0, 0], x[0, 1] = 0.3, 0.6
    _check_with_grad(fn, [x, t, w], [0], dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("pos_weighted", [False, True])
def test_binary_cross_entropy_with_logits(reduction, weighted, pos_weighted, dtype, no_fallback):
    x = torch.randn(4, 5, dtype=dtype) * 10
    t = torch.rand(4, 5, dtype=dtype)
    w = torch.rand(4, 1, dtype=dtype) if weighted else None
    pw = torch.rand(5, dtype=dtype) * 3 if pos_weighted else None
    fn = lambda a, b, c, d: F.binary_cross_entropy_with_logits(a, b, c, pos_weight=d, reduction=reduction)
    _check_with_grad(fn, [x, t, w, pw], [0, 1], dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", REDUCTIONS + ["batchmean"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div(reduction, log_target, dtype, no_fallback):
    x = torch.randn(4, 6, dtype=dtype).log_softmax(-1)
    t = torch.randn(4, 6, dtype=dtype).softmax(-1)
    if log_target:
        t = t.log()
    else:
        t[0, 0] = 0  # 0 * log 0 is 0
    fn = lambda a, b: F.kl_div(a, b, reduction=reduction, log_target=log_target)
    _check_with_grad(fn, [x, t], [0, 1] if log_target else [0], dtype)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("smoothing", [0.0, 0.2])
@pytest.mark.parametrize("spatial", [False, True])
def test_cross_entropy_class_targets(reduction, weighted, smoothing, spatial, no_fallback):
    x = torch.randn(6, 4, 3) if spatial else torch.randn(6, 4)
    target = torch.randint(0, 4, (6, 3) if spatial else (6,))
    target[1] = -100
    w = torch.rand(4) if weighted else None
    fn = lambda a, b, c: F.cross_entropy(a, b, c, reduction=reduction, label_smoothing=smoothing)
    _check_with_grad(fn, [x, target, w], [0], torch.float32)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("smoothing", [0.0, 0.3])
def test_cross_entropy_probability_targets(reduction, weighted, smoothing, no_fallback):
    x = torch.randn(5, 4, 2)
    target = torch.randn(5, 4, 2).softmax(1)
    w = torch.rand(4) if weighted else None
    fn = lambda a, b, c: F.cross_entropy(a, b, c, reduction=reduction, label_smoothing=smoothing)
    _check_with_grad(fn, [x, target, w], [0, 1], torch.float32)
