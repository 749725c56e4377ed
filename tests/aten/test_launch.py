"""The elementwise launch (csrc/aten/launch.cpp) and its contiguous vector
path (shaders/common/strided.glsl): steps of VEC elements, 16 bytes of the
narrowest operand (8 halves, 16 bytes, 4 floats or doubles), taken only when
every operand starts 16-byte aligned; the ragged end goes element by element,
and anything misaligned takes the element path. The data are small integers,
so every result is exact and compared bit for bit with the CPU."""

import pytest
import torch

from tests.helpers import ALL_DTYPES, assert_bitwise_equal

# Around the vector steps of every width, and past one workgroup's block
# (kPerInvocation steps of 16 elements per invocation for 1-byte types).
LENGTHS = [1, 3, 7, 8, 9, 15, 16, 17, 33, 63, 65, 129, 20005]
# Views starting there are misaligned for every width (1, 3, 7), or aligned
# again for some: 8 elements are 16 bytes of a 2-byte type, 16 of a 1-byte one.
OFFSETS = [1, 3, 7, 8, 16]


def data(dtype, n, seed=0, low=None):
    """n small integers as dtype: exact in every dtype, sums included."""
    gen = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return torch.randint(0, 2, (n,), generator=gen).bool()
    if low is None:
        low = 0 if dtype == torch.uint8 else -50
    return torch.randint(low, 50, (n,), generator=gen).to(dtype)


def same(fn, *inputs):
    expected = fn(*inputs)
    actual = fn(*[t.to("vulkan") for t in inputs])
    assert actual.device.type == "vulkan"
    assert_bitwise_equal(actual.cpu(), expected)


def ids(dtype):
    return str(dtype)[6:]


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids)
def test_tails(dtype, n, no_fallback):
    a, b = data(dtype, n, 0), data(dtype, n, 1)
    same(torch.add, a, b)
    same(torch.lt, a, b)  # bool output: the step is 16 elements for every dtype
    same(torch.clone, a)
    if dtype != torch.bool:
        same(torch.neg if dtype != torch.uint8 else torch.bitwise_not, a)

    # Into the start of a longer buffer: the last step stops at n.
    def into_prefix(x, y):
        out = torch.ones(n + 40, dtype=dtype, device=x.device)
        torch.add(x, y, out=out[:n])
        return out
    same(into_prefix, a, b)


@pytest.mark.parametrize("n", [9, 33, 20005])
@pytest.mark.parametrize("src,dst", [(s, d) for s in ALL_DTYPES for d in ALL_DTYPES if s != d],
                         ids=ids)
def test_convert_tails(src, dst, n, no_fallback):
    """Conversions mix widths: 1-byte <-> 8-byte types step by 16 elements,
    eight uvec4 accesses to the wide side."""
    same(lambda t: t.to(dst), data(src, n, low=0))


@pytest.mark.parametrize("offset", OFFSETS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids)
def test_offset_views(dtype, offset, no_fallback):
    n = 70
    a, b = data(dtype, n + offset, 0), data(dtype, n, 1)
    # One operand at the offset, the other aligned: the path follows the worse.
    same(lambda x, y: torch.add(x[offset:], y), a, b)
    same(lambda x, y: torch.eq(x[offset:], y), a, b)
    same(lambda x: x[offset:].to(torch.float32 if dtype != torch.float32 else torch.int8), a)
    # The output at the offset, inside a longer buffer.
    def into_view(x, y):
        out = torch.ones(n + offset + 20, dtype=dtype, device=x.device)
        torch.add(x[offset:], y, out=out[offset:offset + n])
        return out
    same(into_view, a, b)


@pytest.mark.parametrize("n", [5, 17, 70])
def test_mixed_dtypes(n, no_fallback):
    f16, f32, bf16 = data(torch.float16, n, 0), data(torch.float32, n, 1), data(torch.bfloat16, n, 2)
    i8, u8, b8 = data(torch.int8, n, 3), data(torch.uint8, n, 4), data(torch.bool, n, 5)
    same(torch.add, f16, f32)  # f16 cast to f32, then f32 + f32
    same(torch.mul, f16, f16.flip(0))
    same(lambda x, y: torch.add(x, y, out=torch.empty(n, device=x.device)), f16, f16.flip(0))
    same(torch.lt, bf16, bf16.flip(0))
    same(torch.ge, bf16, f32)
    same(torch.isnan, f16 / f16)  # 0 / 0 among them: f16 in, bool out
    same(torch.add, u8, i8)  # int16
    same(torch.mul, i8, b8)
    same(torch.bitwise_and, u8, u8.flip(0))
    same(torch.bitwise_xor, b8, b8.flip(0))
    same(torch.logical_not, i8)
    same(torch.logical_or, u8, f16)
    same(torch.where, b8, i8, u8)


INPLACE = {
    "add_": lambda v: v.add_(1),
    "mul_": lambda v: v.mul_(v.flip(0)),
    "fill_": lambda v: v.fill_(3),
    "copy_": lambda v: v.copy_(v.flip(0)),
    "clamp_": lambda v: v.clamp_(max=7),
}
VIEWS = {  # name: view of a 6 x 40 tensor
    "offset_1": lambda t: t.view(-1)[1:],
    "offset_8": lambda t: t.view(-1)[8:-5],
    "offset_16": lambda t: t.view(-1)[16:],
    "rows": lambda t: t[1:, 3:],
    "step_2": lambda t: t.view(-1)[::2],
}


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("op", INPLACE)
@pytest.mark.parametrize("dtype", [torch.uint8, torch.int8, torch.int16, torch.float16,
                                   torch.bfloat16, torch.float32, torch.int64], ids=ids)
def test_inplace_on_views(dtype, op, view, no_fallback):
    base = data(dtype, 240).view(6, 40)
    expected = base.clone()
    INPLACE[op](VIEWS[view](expected))
    actual = base.to("vulkan")
    target = VIEWS[view](actual)
    assert INPLACE[op](target) is target
    assert_bitwise_equal(actual.cpu(), expected)


@pytest.mark.parametrize("view", VIEWS)
def test_bool_inplace_on_views(view, no_fallback):
    base = data(torch.bool, 240).view(6, 40)
    for op in [lambda v: v.logical_not_(), lambda v: v.bitwise_or_(v.flip(0)), lambda v: v.fill_(True)]:
        expected = base.clone()
        op(VIEWS[view](expected))
        actual = base.to("vulkan")
        op(VIEWS[view](actual))
        assert_bitwise_equal(actual.cpu(), expected)
