"""torch._int_mm: int8 (or uint8) [m, k] @ int8 [k, n] -> int32, exact, in
the portable tier's int32-out variants (gemm_tiled_i32), compared with the
CPU bit for bit; its errors are the CPU's."""

import pytest
import torch

from tests.aten.ops.matmul.test_matmul import _operand
from tests.helpers import assert_same_values, kernels_of, pytest_with_tile


def _int8(*shape, dtype=torch.int8):
    low, high = (0, 256) if dtype == torch.uint8 else (-128, 128)
    return torch.randint(low, high, shape, dtype=dtype)


def _check(a, b, da=None, db=None):
    """_int_mm of a and b (or of their device forms da, db) matches the CPU's."""
    da = a.to("vulkan") if da is None else da
    db = b.to("vulkan") if db is None else db
    assert_same_values(torch._int_mm(da, db).cpu(), torch._int_mm(a, b))


@pytest.mark.parametrize("a_dtype", [torch.int8, torch.uint8])
@pytest.mark.parametrize("shape", [(1, 1, 1), (5, 1, 7), (1, 9, 1), (67, 33, 129), (64, 64, 64), (130, 21, 131),
                                   (3, 0, 4), (0, 3, 4), (3, 4, 0)])
def test_shapes(shape, a_dtype, no_fallback):
    m, k, n = shape
    _check(_int8(m, k, dtype=a_dtype), _int8(k, n))


def test_runs_the_int32_out_kernel(no_fallback):
    # Transposed operands are read in place (no copy kernels), as mm's.
    b = _int8(7, 9).to("vulkan")
    for dtype in (torch.int8, torch.uint8):
        a = _int8(9, 40, dtype=dtype).to("vulkan")
        name = "gemm_tiled_i32.t64." + ("u8" if dtype == torch.uint8 else "i8")
        assert kernels_of(lambda: torch._int_mm(a.t(), b.t())) == [name]


@pytest.mark.parametrize("a_dtype", [torch.int8, torch.uint8])
def test_transposed_and_strided_operands(a_dtype, no_fallback):
    a, b = _int8(40, 70, dtype=a_dtype), _int8(69, 40)
    da, db = a.to("vulkan"), b.to("vulkan")
    _check(a.t(), b.t(), da.t(), db.t())
    _check(a[::2, 1::3], b[1::3, ::2], da[::2, 1::3], db[1::3, ::2])


# The kernel reads an operand in chunks of 4 values along its contiguous dim:
# one 4-byte load where it is aligned with extents and strides multiples of
# 4, else value by value. Both, in each orientation, with tile edges inside
# a chunk row (132 x 136 outputs).
@pytest.mark.parametrize("a_dtype", [torch.int8, torch.uint8])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_vector_staging(ta, tb, a_dtype, no_fallback):
    a, b = _int8(132, 36, dtype=a_dtype), _int8(36, 136)
    for misaligned in (False, True):
        _check(a, b, _operand(a, ta, misaligned), _operand(b, tb, misaligned))


@pytest.mark.parametrize("a_dtype", [torch.int8, torch.uint8])
def test_extreme_values(a_dtype, no_fallback):
    low, high = (0, 255) if a_dtype == torch.uint8 else (-128, 127)
    a = torch.tensor([[low] * 37, [high] * 37, [low, high] * 18 + [low]], dtype=a_dtype)
    b = torch.tensor([[-128, 127, -1, 0]] * 37, dtype=torch.int8)
    _check(a, b)


@pytest.mark.parametrize("a_dtype", [torch.int8, torch.uint8])
def test_sums_wrap_as_int32(a_dtype, no_fallback):
    # 140000 products of 128 x 128 (and of 255 x 128): past 2^31.
    k = 140000
    first = 255 if a_dtype == torch.uint8 else -128
    a = torch.tensor([[first], [127]], dtype=a_dtype).expand(2, k).contiguous()
    b = torch.tensor([[-128, 127, 1]], dtype=torch.int8).expand(k, 3).contiguous()
    expected = (a.long() @ b.long() + 2**31) % 2**32 - 2**31
    assert_same_values(torch._int_mm(a, b), expected.int())
    _check(a, b)


def test_out(no_fallback):
    a, b = _int8(5, 19), _int8(19, 6)
    out = torch.full((5, 6), 7, dtype=torch.int32, device="vulkan")
    assert torch._int_mm(a.to("vulkan"), b.to("vulkan"), out=out) is out
    assert_same_values(out.cpu(), torch._int_mm(a, b))
    # K = 0: out is zeroed.
    torch._int_mm(_int8(5, 0).to("vulkan"), _int8(0, 6).to("vulkan"), out=out)
    assert_same_values(out.cpu(), torch.zeros(5, 6, dtype=torch.int32))


def _bad_cases():
    i8, u8 = torch.int8, torch.uint8
    return {
        "1-D self": ((4,), i8, (4, 5), None),
        "3-D self": ((2, 3, 4), i8, (4, 5), None),
        "0-D self": ((), i8, (4, 5), None),
        "1-D mat2": ((3, 4), i8, (4,), None),
        "3-D mat2": ((3, 4), i8, (4, 5, 2), None),
        "k mismatch": ((3, 4), i8, (5, 5), None),
        "float self": ((3, 4), torch.float32, (4, 5), None),
        "int32 self": ((3, 4), torch.int32, (4, 5), None),
        "bool self": ((3, 4), torch.bool, (4, 5), None),
        "uint8 mat2": ((3, 4), i8, (4, 5), u8),
        "int64 out": ((3, 4), i8, (4, 5), ((3, 5), torch.int64, False)),
        "out rows": ((3, 4), i8, (4, 5), ((2, 5), torch.int32, False)),
        "out cols": ((3, 4), i8, (4, 5), ((3, 6), torch.int32, False)),
        "empty out": ((3, 4), i8, (4, 5), ((0,), torch.int32, False)),
        "1-D out": ((3, 4), i8, (4, 5), ((3,), torch.int32, False)),
        "3-D out": ((3, 4), i8, (4, 5), ((3, 5, 1), torch.int32, False)),
        "transposed out": ((3, 4), i8, (4, 5), ((5, 3), torch.int32, True)),
    }


@pytest.mark.parametrize("case", list(_bad_cases()))
def test_errors_match_the_cpu(case, no_fallback):
    a_shape, a_dtype, b_shape, extra = _bad_cases()[case]
    b_dtype = extra if isinstance(extra, torch.dtype) else torch.int8
    a = torch.zeros(a_shape).to(a_dtype)
    b = torch.zeros(b_shape).to(b_dtype)

    def run(device):
        kwargs = {}
        if isinstance(extra, tuple):
            shape, dtype, transposed = extra
            out = torch.empty(shape, dtype=dtype, device=device)
            kwargs["out"] = out.t() if transposed else out
        with pytest.raises(Exception) as info:
            torch._int_mm(a.to(device), b.to(device), **kwargs)
        return type(info.value), str(info.value).splitlines()[0]

    assert run("vulkan") == run("cpu")


# The 128-row tiles, taken only for large products (gemm.cpp's pick_tile),
# forced in a child process (the choice is read once per process).
@pytest.mark.parametrize("tile", ["t128", "t128w", "t128x64", "t128wv"])
def test_forced_tiles(tile):
    pytest_with_tile(__file__, tile, "test_shapes or test_vector_staging or test_extreme_values")
