import pytest
import torch
import torch.nn.functional as F

import torchvulkan

from tests.opinfo import check_op, parametrize

OPS = ["nn.functional.relu", "nn.functional.leaky_relu", "nn.functional.elu",
       "nn.functional.selu", "nn.functional.celu", "nn.functional.gelu", "nn.functional.silu",
       "nn.functional.mish", "nn.functional.softplus", "nn.functional.hardtanh",
       "nn.functional.relu6", "nn.functional.hardsigmoid", "nn.functional.hardswish",
       "nn.functional.threshold", "nn.functional.hardshrink", "nn.functional.softshrink"]


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


# Forms OpInfo leaves out, edge values and argument errors, in plain pytest.
ACTIVATIONS = {
    "relu": F.relu,
    "leaky_relu": lambda x: F.leaky_relu(x, -0.3),
    "elu": lambda x: F.elu(x, 1.3),
    "selu": F.selu,
    "celu": lambda x: F.celu(x, 0.5),
    "gelu": F.gelu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "silu": F.silu,
    "mish": F.mish,
    "softplus": lambda x: F.softplus(x, beta=2, threshold=3),
    "hardtanh": lambda x: F.hardtanh(x, -0.5, 2.0),
    # F.hardtanh rejects min > max; ATen's op gives max.
    "hardtanh_reversed": lambda x: torch.ops.aten.hardtanh(x, 2.0, -0.5),
    "hardsigmoid": F.hardsigmoid,
    "hardswish": F.hardswish,
    "threshold": lambda x: F.threshold(x, 0.3, -7.0),
    "hardshrink": lambda x: F.hardshrink(x, 0.5),
    "softshrink": lambda x: F.softshrink(x, 0.5),
}
# NaN, infinities, signed zeros, the kinks (0, +-3, hardtanh's bounds, the
# threshold) and values past exp's range.
EDGES = [float("nan"), float("inf"), -float("inf"), -0.0, 0.0, -3.0, 3.0, -0.5, 2.0, 0.3, 1e-6,
         -1e-6, 1e-30, 30.0, -30.0, 100.0, -100.0]


def _per_element(fn, x):
    """fn on the CPU one element at a time: its scalar kernel, whose NaN and
    infinity rules the device follows (the vectorized kernels differ, e.g.
    gelu(inf) is NaN there)."""
    return torch.cat([fn(x[i:i + 1]) for i in range(x.numel())])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16],
                         ids=lambda d: str(d)[6:])
@pytest.mark.parametrize("name", ACTIVATIONS)
def test_edge_values(name, dtype, no_fallback):
    fn = ACTIVATIONS[name]
    x = torch.tensor(EDGES, dtype=dtype)
    torch.testing.assert_close(fn(x.to("vulkan")).cpu(), _per_element(fn, x), equal_nan=True,
                               atol=1e-6, rtol=1e-5 if dtype is not torch.bfloat16 else 1e-2)


# float64 activations compute in double (shaders/common/math64.glsl): they must
# reach double precision, far inside the OpInfo tolerance, over a wide range.
@pytest.mark.parametrize("name", ACTIVATIONS)
def test_float64_accuracy(name, no_fallback):
    if not torchvulkan.get_device_properties(0).float64:
        pytest.skip("no float64 on this device")
    fn = ACTIVATIONS[name]
    x = torch.cat([torch.linspace(-40, 40, 8001, dtype=torch.float64),
                   torch.linspace(-1e-3, 1e-3, 201, dtype=torch.float64)])
    # Results near 0 may come from cancellation (gelu's 1 + tanh), on the CPU too.
    torch.testing.assert_close(fn(x.to("vulkan")).cpu(), fn(x), rtol=2e-14, atol=1e-14)


INPLACE = {  # in-place forms OpInfo has no variant for
    "relu_": (torch.relu_, [torch.int8, torch.uint8, torch.int64, torch.float32, torch.float64]),
    "hardtanh_": (lambda x: F.hardtanh_(x, -2, 3), [torch.int16, torch.float32, torch.bfloat16]),
    "hardswish_": (lambda x: F.hardswish(x, inplace=True), [torch.float32, torch.float16]),
    "silu_": (lambda x: F.silu(x, inplace=True), [torch.float32, torch.bfloat16]),
}


@pytest.mark.parametrize("name,dtype", [(n, d) for n, (_, ds) in INPLACE.items() for d in ds])
def test_inplace_on_view(name, dtype, no_fallback):
    fn = INPLACE[name][0]
    x = (torch.randn(6, 8) * 5).to(dtype)
    expected = x.clone()
    fn(expected[:, 1::2])
    base = x.to("vulkan")
    view = base[:, 1::2]
    assert fn(view) is view
    torch.testing.assert_close(base.cpu(), expected, atol=1e-3, rtol=1e-3)


def test_argument_errors(no_fallback):
    x = torch.zeros(3, device="vulkan")
    with pytest.raises(RuntimeError, match="Boolean inputs not supported for relu"):
        torch.relu(x.bool())
    with pytest.raises(RuntimeError, match="unsigned type with negative limits"):
        F.hardtanh(x.to(torch.uint8), -1, 1)
    with pytest.raises(RuntimeError, match="approximate argument must be either none or tanh"):
        torch._C._nn.gelu(x, approximate="erf")
    with pytest.raises(RuntimeError, match="alpha cannot be 0"):
        F.celu(x, 0.0)
