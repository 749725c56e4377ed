"""Activation backward ops on the device, compared with the CPU in strict mode:
gradients through autograd (so the dispatcher picks the backward op), the
backward ops called directly (functional and grad_input forms, strided and
broadcast inputs), and edge values."""

import pytest
import torch
import torch.nn.functional as F

import torchvulkan

DTYPES = [torch.float32, torch.float64, torch.bfloat16, torch.float16]
TOLERANCES = {torch.float16: (1e-3, 1e-3), torch.bfloat16: (1.6e-2, 1e-2),
              torch.float32: (1e-5, 1e-5), torch.float64: (1e-7, 1e-7)}

# In-place forms save their result, which selects the backward op's is_result path.
ACTIVATIONS = {
    "relu": F.relu,
    "relu_": lambda x: F.relu(x.clone(), inplace=True),
    "leaky_relu": lambda x: F.leaky_relu(x, 0.2),
    "leaky_relu_": lambda x: F.leaky_relu(x.clone(), 0.2, inplace=True),
    "elu": lambda x: F.elu(x, 0.8),
    "elu_": lambda x: F.elu(x.clone(), 0.8, inplace=True),
    "selu": F.selu,
    "celu": lambda x: F.celu(x, 0.6),
    "gelu": F.gelu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "silu": F.silu,
    "mish": F.mish,
    "softplus": lambda x: F.softplus(x, beta=2, threshold=3),
    "hardtanh": lambda x: F.hardtanh(x, -0.5, 2.0),
    "relu6": F.relu6,
    "hardsigmoid": F.hardsigmoid,
    "hardswish": F.hardswish,
    "threshold": lambda x: F.threshold(x, 0.3, -1.0),
}

aten = torch.ops.aten
# name: (op, its arguments from (grad, x), keyword arguments, input domain).
# x is the forward input, or the forward output where the op takes that.
BACKWARD_OPS = {
    "threshold_backward": (aten.threshold_backward, lambda g, x: (g, x, 0.3), {}, None),
    "sigmoid_backward": (aten.sigmoid_backward, lambda g, y: (g, y), {}, torch.sigmoid),
    "tanh_backward": (aten.tanh_backward, lambda g, y: (g, y), {}, torch.tanh),
    "silu_backward": (aten.silu_backward, lambda g, x: (g, x), {}, None),
    "gelu_backward": (aten.gelu_backward, lambda g, x: (g, x), {}, None),
    "gelu_backward_tanh": (aten.gelu_backward, lambda g, x: (g, x), {"approximate": "tanh"},
                           None),
    "leaky_relu_backward": (aten.leaky_relu_backward, lambda g, x: (g, x, -0.3, False), {}, None),
    "leaky_relu_backward_result": (aten.leaky_relu_backward, lambda g, y: (g, y, 0.3, True), {},
                                   None),
    "elu_backward": (aten.elu_backward, lambda g, x: (g, 1.2, 0.9, 0.7, False, x), {}, None),
    "elu_backward_result": (aten.elu_backward, lambda g, y: (g, 1.2, 0.9, 0.7, True, y), {},
                            None),
    "softplus_backward": (aten.softplus_backward, lambda g, x: (g, x, 2, 3), {}, None),
    "hardtanh_backward": (aten.hardtanh_backward, lambda g, x: (g, x, -0.5, 2.0), {}, None),
    "hardshrink_backward": (aten.hardshrink_backward, lambda g, x: (g, x, 0.5), {}, None),
    "softshrink_backward": (aten.softshrink_backward, lambda g, x: (g, x, 0.5), {}, None),
    "hardsigmoid_backward": (aten.hardsigmoid_backward, lambda g, x: (g, x), {}, None),
    "hardswish_backward": (aten.hardswish_backward, lambda g, x: (g, x), {}, None),
    "mish_backward": (aten.mish_backward, lambda g, x: (g, x), {}, None),
    "logit_backward": (aten.logit_backward, lambda g, x: (g, x), {}, torch.sigmoid),
    "logit_backward_eps": (aten.logit_backward, lambda g, x: (g, x, 0.2), {}, torch.sigmoid),
}
# hardswish_backward.out and mish_backward have no grad_input form to test.
GRAD_INPUT_FORM = {name for name, entry in BACKWARD_OPS.items()
                   if "grad_input" in entry[0].overloads()}


def _cases(table, dtypes=DTYPES):
    return [pytest.param(name, dtype, id=f"{name}-{str(dtype)[6:]}") for name in table for dtype in dtypes]


def _close(actual, expected, context=""):
    assert actual.device.type == "vulkan"
    rtol, atol = TOLERANCES[expected.dtype]
    torch.testing.assert_close(actual.cpu(), expected, rtol=rtol, atol=atol, equal_nan=True,
                               msg=lambda m: f"{context}\n{m}")


@pytest.fixture
def native_only(no_fallback):
    torchvulkan.reset_fallback_counts()
    yield
    assert torchvulkan.fallback_counts() == {}


def _inputs(dtype, domain=None, shape=(5, 7)):
    gen = torch.Generator().manual_seed(0)
    x = (torch.randn(shape, generator=gen) * 3).to(dtype)
    grad = torch.randn(shape, generator=gen).to(dtype)
    return (x if domain is None else domain(x.float()).to(dtype)), grad


@pytest.mark.parametrize("name,dtype", _cases(ACTIVATIONS))
def test_autograd(name, dtype, native_only):
    fn = ACTIVATIONS[name]
    x, grad = _inputs(dtype)
    x_cpu = x.clone().requires_grad_()
    (expected,) = torch.autograd.grad(fn(x_cpu), x_cpu, grad)
    # A transposed input makes the backward op run strided.
    x_vk = x.t().contiguous().to("vulkan").t().requires_grad_()
    (actual,) = torch.autograd.grad(fn(x_vk), x_vk, grad.to("vulkan"))
    _close(actual, expected, name)


@pytest.mark.parametrize("name,dtype", _cases(BACKWARD_OPS))
def test_backward_op(name, dtype, native_only):
    op, args, kwargs, domain = BACKWARD_OPS[name]
    x, grad = _inputs(dtype, domain)
    vk = lambda t: t.to("vulkan")
    expected = op(*args(grad, x), **kwargs)
    _close(op(*args(vk(grad), vk(x)), **kwargs), expected, name)
    # Strided, and a gradient broadcast over rows.
    x_t = x.t().contiguous().to("vulkan").t()
    _close(op(*args(vk(grad), x_t), **kwargs), expected, f"{name} strided")
    # (The CPU's oneDNN gelu_backward rejects broadcasting: expand for it.)
    _close(op(*args(vk(grad[:1]), vk(x)), **kwargs),
           op(*args(grad[:1].expand_as(x), x), **kwargs), f"{name} broadcast")
    if name in GRAD_INPUT_FORM:
        out = torch.empty(0, dtype=dtype, device="vulkan")
        result = op.grad_input(*args(vk(grad), vk(x)), **kwargs, grad_input=out)
        assert result is out
        _close(out, expected, f"{name} grad_input")


# NaN, infinities, signed zeros, the kinks (0, +-3, hardtanh's bounds -0.5 and
# 2, threshold 0.3) and values past exp's range.
EDGES = [float("nan"), float("inf"), -float("inf"), -0.0, 0.0, -3.0, 3.0, -0.5, 2.0, 0.3, 1e-6,
         -1e-6, 30.0, -30.0, 100.0, -100.0]
LOGIT_EDGES = [0.0, 1.0, -0.1, 1.1, 0.2, 0.8, 1e-6, 0.5, float("nan"), float("inf")]


def _per_element(fn, *tensors):
    """fn on the CPU one element at a time: its scalar kernel, whose NaN rules
    the device follows (the vectorized kernels differ for some ops)."""
    return torch.cat([fn(*(t[i:i + 1] for t in tensors)) for i in range(tensors[0].numel())])


@pytest.mark.parametrize("name,dtype", _cases(BACKWARD_OPS, [torch.float32, torch.float64]))
def test_backward_edge_values(name, dtype, native_only):
    op, args, kwargs, _ = BACKWARD_OPS[name]
    x = torch.tensor(LOGIT_EDGES if name.startswith("logit") else EDGES, dtype=dtype)
    for g in (1.5, -0.0):
        grad = torch.full_like(x, g)
        expected = _per_element(lambda a, b: op(*args(a, b), **kwargs), grad, x)
        actual = op(*args(grad.to("vulkan"), x.to("vulkan")), **kwargs)
        _close(actual, expected, f"{name} grad {g}")


# float64 gradients compute in double (shaders/common/math64.glsl): they must
# reach double precision, far inside the tolerance above, over a wide range.
@pytest.mark.parametrize("name", BACKWARD_OPS)
def test_float64_accuracy(name, native_only):
    if not torchvulkan.get_device_properties(0).float64:
        pytest.skip("no float64 on this device")
    op, args, kwargs, domain = BACKWARD_OPS[name]
    x = torch.linspace(-40, 40, 8001, dtype=torch.float64)
    x = x if domain is None else domain(x)
    grad = torch.linspace(-2, 2, 8001, dtype=torch.float64)
    expected = op(*args(grad, x), **kwargs)
    actual = op(*args(grad.to("vulkan"), x.to("vulkan")), **kwargs).cpu()
    torch.testing.assert_close(actual, expected, rtol=2e-14, atol=1e-14)
