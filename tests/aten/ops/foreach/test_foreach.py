"""The _foreach_ ops against the CPU: every overload the optimizers and
clip_grad_norm_ use (and their neighbours), functional and in-place, on the
multi-tensor fast path and on ATen's per-tensor slow path (non-contiguous or
mixed lists), in strict mode."""

import math

import pytest
import torch

FLOATS = [torch.float32, torch.float16, torch.bfloat16, torch.float64]
INTS = [torch.int32, torch.int64]
# Several chunks per tensor (a workgroup takes a few hundred elements), a
# 0-dim and an empty tensor.
SHAPES = [(3, 4), (5,), (), (0,), (2, 3, 2), (1500,)]


def tolerance(dtype):
    return {torch.float16: (2e-3, 1e-3), torch.bfloat16: (1.6e-2, 1e-2), torch.float32: (1e-5, 1e-5),
            torch.float64: (1e-9, 1e-9)}.get(dtype, (0, 0))


def tensors(dtype, seed, positive=False, shapes=SHAPES):
    g = torch.Generator().manual_seed(seed)
    out = []
    for shape in shapes:
        if dtype.is_floating_point:
            t = torch.randn(shape, generator=g, dtype=torch.float64)
            t = t.abs() + 0.5 if positive else t
        else:
            t = torch.randint(1 if positive else -9, 10, shape, generator=g, dtype=torch.int64)
        out.append(t.to(dtype))
    return out


def to_vulkan(value):
    if isinstance(value, list) and value and isinstance(value[0], torch.Tensor):
        return [t.to("vulkan") for t in value]
    return value.to("vulkan") if isinstance(value, torch.Tensor) else value


def assert_lists_close(actual, expected, dtype):
    rtol, atol = tolerance(dtype)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert a.device.type == "vulkan"
        torch.testing.assert_close(a.cpu(), e, rtol=rtol, atol=atol, equal_nan=True)


def check(name, dtype, inputs, *args, inplace=True, **kwargs):
    """Runs torch._foreach_<name> (and _<name>_) on copies of `inputs` on both devices."""
    fn = getattr(torch, f"_foreach_{name}")
    expected = fn(*inputs, *args, **kwargs)
    actual = fn(*[to_vulkan(i) for i in inputs], *args, **kwargs)
    assert_lists_close(actual, expected, dtype)
    if inplace:
        fn_ = getattr(torch, f"_foreach_{name}_")
        cpu_self = [t.clone() for t in inputs[0]]
        vk_self = to_vulkan(inputs[0])
        fn_(cpu_self, *inputs[1:], *args, **kwargs)
        fn_(vk_self, *[to_vulkan(i) for i in inputs[1:]], *args, **kwargs)
        assert_lists_close(vk_self, cpu_self, dtype)


UNARY_FLOAT = ["sqrt", "rsqrt", "reciprocal", "exp", "log", "log1p", "sigmoid", "tanh", "sin", "erf", "floor",
               "round", "trunc", "frac", "lgamma"]


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("name", UNARY_FLOAT + ["neg", "abs", "sign"])
def test_unary(name, dtype, no_fallback):
    check(name, dtype, [tensors(dtype, 0, positive=name in ("sqrt", "rsqrt", "log", "log1p", "lgamma"))])


@pytest.mark.parametrize("dtype", INTS, ids=str)
@pytest.mark.parametrize("name", ["neg", "abs", "sign"])
def test_unary_int(name, dtype, no_fallback):
    check(name, dtype, [tensors(dtype, 0)])


@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_unary_int_promotes(dtype, no_fallback):
    # sqrt of integers gives floats: ATen's slow path, still native.
    check("sqrt", torch.float32, [tensors(dtype, 0, positive=True)], inplace=False)


BINARY = [("add", {"alpha": 0.5}), ("sub", {"alpha": 2}), ("mul", {}), ("div", {}), ("maximum", {}),
          ("minimum", {}), ("clamp_min", {}), ("clamp_max", {}), ("pow", {})]


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("name,kwargs", BINARY, ids=[b[0] for b in BINARY])
def test_binary_list(name, kwargs, dtype, no_fallback):
    positive = name == "pow"
    check(name, dtype, [tensors(dtype, 0, positive), tensors(dtype, 1, positive)], **kwargs)


@pytest.mark.parametrize("dtype", INTS, ids=str)
@pytest.mark.parametrize("name", ["add", "sub", "mul", "maximum", "minimum"])
def test_binary_list_int(name, dtype, no_fallback):
    check(name, dtype, [tensors(dtype, 0), tensors(dtype, 1)])


SCALAR = ["add", "sub", "mul", "div", "maximum", "minimum", "clamp_min", "clamp_max", "pow"]


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("name", SCALAR)
def test_binary_scalar(name, dtype, no_fallback):
    check(name, dtype, [tensors(dtype, 0, positive=name == "pow")], 1.5 if name == "pow" else 0.25)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("name", SCALAR)
def test_binary_scalar_list(name, dtype, no_fallback):
    values = [0.5 + 0.25 * i for i in range(len(SHAPES))]
    check(name, dtype, [tensors(dtype, 0, positive=name == "pow")], values)


@pytest.mark.parametrize("dtype", INTS, ids=str)
@pytest.mark.parametrize("name", ["add", "mul", "maximum", "clamp_max"])
def test_binary_scalar_int(name, dtype, no_fallback):
    check(name, dtype, [tensors(dtype, 0)], 3)
    check(name, dtype, [tensors(dtype, 0)], list(range(len(SHAPES))))


@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_binary_scalar_promotes(dtype, no_fallback):
    # An integer list and a float scalar promote: the slow path.
    check("mul", torch.float32, [tensors(dtype, 0)], 0.5, inplace=False)
    check("div", torch.float32, [tensors(dtype, 0, positive=True)], 2, inplace=False)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("name,kwargs", [("add", {"alpha": -2}), ("mul", {}), ("div", {})], ids=["add", "mul", "div"])
@pytest.mark.parametrize("where", ["vulkan", "cpu"])
def test_binary_tensor(name, kwargs, where, dtype, no_fallback):
    xs = tensors(dtype, 0)
    other = torch.tensor(0.75, dtype=dtype)
    fn = getattr(torch, f"_foreach_{name}")
    expected = fn(xs, other, **kwargs)
    actual = fn(to_vulkan(xs), other.to(where), **kwargs)
    assert_lists_close(actual, expected, dtype)
    vk = to_vulkan(xs)
    getattr(torch, f"_foreach_{name}_")(vk, other.to(where), **kwargs)
    assert_lists_close(vk, expected, dtype)


def test_binary_tensor_other_dtype(no_fallback):
    # clip_grad_norm_ multiplies by a coefficient of the norm's dtype.
    xs = tensors(torch.float16, 0)
    coef = torch.tensor(0.3, dtype=torch.float32)
    vk = to_vulkan(xs)
    torch._foreach_mul_(vk, coef.to("vulkan"))
    torch._foreach_mul_(xs, coef)
    assert_lists_close(vk, xs, torch.float16)


def test_binary_tensor_needs_0_dim(no_fallback):
    with pytest.raises(RuntimeError, match="0 dim"):
        torch._foreach_mul(to_vulkan(tensors(torch.float32, 0)), torch.ones(2, device="vulkan"))


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_pow_scalar_base(dtype, no_fallback):
    expected = torch._foreach_pow(2.0, tensors(dtype, 0))
    assert_lists_close(torch._foreach_pow(2.0, to_vulkan(tensors(dtype, 0))), expected, dtype)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_lerp(dtype, no_fallback):
    a, b = tensors(dtype, 0), tensors(dtype, 1)
    check("lerp", dtype, [a, b], 0.3)
    check("lerp", dtype, [a, b], [0.1 * i for i in range(len(SHAPES))])
    weights = [w.abs().clamp(max=1) for w in tensors(dtype, 2)]
    check("lerp", dtype, [a, b, weights])


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("name", ["addcmul", "addcdiv"])
def test_pointwise(name, dtype, no_fallback):
    inputs = [tensors(dtype, 0), tensors(dtype, 1), tensors(dtype, 2, positive=True)]
    check(name, dtype, inputs)
    check(name, dtype, inputs, -0.5)
    values = [0.5 - 0.25 * i for i in range(len(SHAPES))]
    check(name, dtype, inputs, values)
    check(name, dtype, inputs, torch.tensor(values, dtype=torch.float64))


@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_addcmul_int(dtype, no_fallback):
    check("addcmul", dtype, [tensors(dtype, 0), tensors(dtype, 1), tensors(dtype, 2)], 2)


# Lengths around the vector steps (16 bytes, at least 4 elements) and the
# chunks of 1024 steps a workgroup takes; tensors at a 4-byte offset take the
# element path for the whole launch.
VECTOR_SHAPES = [(8192 * 2 + 9,), (4097,), (13,), (3,), (), (64, 33)]


@pytest.mark.parametrize("dtype", FLOATS + INTS, ids=str)
@pytest.mark.parametrize("misaligned", [False, True], ids=["aligned", "misaligned"])
def test_vector_steps_and_ragged_ends(dtype, misaligned, no_fallback):
    def on_vulkan(ts):
        if not misaligned:
            return to_vulkan(ts)
        return [torch.cat([torch.ones(1, dtype=dtype), t.flatten()]).to("vulkan")[1:].view(t.shape) for t in ts]

    a, b, c = (tensors(dtype, seed, positive=True, shapes=VECTOR_SHAPES) for seed in range(3))
    cases = [("add", [a, b], {"alpha": 2}), ("mul", [a], {"scalar": 3}), ("addcmul", [a, b, c], {"value": 2}),
             ("mul", [a, torch.tensor(2, dtype=dtype)], {})]
    if dtype.is_floating_point:
        cases += [("sqrt", [a], {}), ("addcdiv", [a, b, c], {"value": 0.5})]
    for name, inputs, kwargs in cases:
        expected = getattr(torch, f"_foreach_{name}")(*inputs, **kwargs)
        args = [on_vulkan(i) if isinstance(i, list) else i.to("vulkan") for i in inputs]
        assert_lists_close(getattr(torch, f"_foreach_{name}")(*args, **kwargs), expected, dtype)
        getattr(torch, f"_foreach_{name}_")(*args, **kwargs)
        assert_lists_close(args[0], expected, dtype)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
# Other orders (3) take ATen's slow path: linalg_vector_norm per tensor.
@pytest.mark.parametrize("ord", [1, 2, math.inf, 3])
def test_norm(ord, dtype, no_fallback):
    shapes = SHAPES if ord != math.inf else [s for s in SHAPES if s != (0,)]
    xs = tensors(dtype, 0, shapes=shapes)
    assert_lists_close(torch._foreach_norm(to_vulkan(xs), ord), torch._foreach_norm(xs, ord), dtype)


def test_norm_nan_and_inf(no_fallback):
    xs = [torch.tensor([1.0, float("nan"), 2.0]), torch.tensor([float("inf"), -3.0]), torch.zeros(2000)]
    for ord in (1, 2, math.inf):
        assert_lists_close(torch._foreach_norm(to_vulkan(xs), ord), torch._foreach_norm(xs, ord), torch.float32)


def test_slow_path_mixed_lists(no_fallback):
    # Non-contiguous tensors and mixed dtypes leave the fast path, natively.
    xs = [torch.randn(4, 6)[:, ::2], torch.randn(3)]
    ys = [torch.randn(4, 3), torch.randn(3)]
    check("add", torch.float32, [xs, ys], alpha=0.5)
    mixed = [torch.randn(3), torch.randn(3, dtype=torch.float64)]
    check("mul", torch.float64, [mixed], 2.0)
    check("add", torch.float64, [mixed, [torch.randn(3), torch.randn(3, dtype=torch.float64)]])


def test_length_mismatch_raises(no_fallback):
    with pytest.raises(RuntimeError):
        torch._foreach_add(to_vulkan(tensors(torch.float32, 0)), to_vulkan(tensors(torch.float32, 1)[:2]))
    with pytest.raises(RuntimeError):
        torch._foreach_add(to_vulkan(tensors(torch.float32, 0)), [1.0, 2.0])


def test_many_tensors_one_op_each(no_fallback):
    """The fast path issues no per-tensor op: the profiler sees only the
    _foreach_ op, where the slow path would call add_ once per tensor."""
    xs = [torch.randn(7).to("vulkan") for _ in range(600)]  # more than one dispatch's table
    ys = [torch.randn(7).to("vulkan") for _ in range(600)]
    expected = [x.cpu() + 2 * y.cpu() for x, y in zip(xs, ys)]
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        torch._foreach_add_(xs, ys, alpha=2)
    names = [e.name for e in prof.events()]
    assert "aten::_foreach_add_" in names
    assert "aten::add_" not in names
    assert_lists_close(xs, expected, torch.float32)


def test_many_tensors_norm_and_scalar_list(no_fallback):
    # Lists longer than one dispatch's table: per-tensor scalars and partial
    # results keep their tensor's index across dispatches.
    g = torch.Generator().manual_seed(0)
    xs = [torch.randn(int(n), generator=g) for n in torch.randint(1, 700, (530,), generator=g)]
    values = [0.01 * i for i in range(len(xs))]
    for ord in (1, 2, math.inf):
        assert_lists_close(torch._foreach_norm(to_vulkan(xs), ord), torch._foreach_norm(xs, ord), torch.float32)
    check("mul", torch.float32, [xs], values)
