import pytest
import torch

from tests.aten.ops.sort.stable import check_sorting_op, stable_indices
from tests.opinfo import parametrize


def sort_reference(x, args, kwargs):
    dim = args[0] if len(args) > 0 else kwargs.get("dim", -1)
    descending = args[1] if len(args) > 1 else kwargs.get("descending", False)
    return stable_indices(x, dim, descending)


@parametrize(["sort", "argsort"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_sorting_op(op, dtype, variant, sort_reference)


@parametrize(["msort"], variants=["functional", "out"])
def test_msort(op, dtype, variant, no_fallback):
    check_sorting_op(op, dtype, variant, lambda x, args, kwargs: None)


def special_values(n, dtype):
    """n values with ties, and for floats NaN, infinities and both zeros."""
    x = torch.randint(-5, 6, (n,)).to(dtype) if dtype != torch.bool else torch.rand(n) > 0.5
    if dtype.is_floating_point and n >= 8:
        x[torch.randperm(n)[:8]] = torch.tensor([float("nan"), float("inf"), -float("inf"), -0.0, 0.0,
                                                 float("nan"), 0.5, -0.0], dtype=dtype)
    return x


def check_sort(x, dim=-1, descending=False):
    values, indices = torch.sort(x.to("vulkan"), dim=dim, descending=descending, stable=True)
    expected = torch.sort(x, dim=dim, descending=descending, stable=True)
    torch.testing.assert_close(values.cpu(), expected.values, equal_nan=True, rtol=0, atol=0)
    torch.testing.assert_close(indices.cpu(), expected.indices, rtol=0, atol=0)
    # -0.0 and 0.0 tie: the values are the input's own elements, sign included.
    if x.is_floating_point():
        assert torch.equal(values.cpu().signbit(), expected.values.signbit())


# Lengths around one tile of the network (2048), and several merge stages.
@pytest.mark.parametrize("n", [0, 1, 2, 5, 2047, 2048, 2049, 6000])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_lengths(n, descending, no_fallback):
    check_sort(special_values(n, torch.float32), descending=descending)


@pytest.mark.parametrize("dtype", [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
                                   torch.float16, torch.bfloat16, torch.float64])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_dtypes(dtype, descending, no_fallback):
    check_sort(special_values(300, dtype), descending=descending)
    check_sort(special_values(4100, dtype), descending=descending)


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int8, torch.uint8])
def test_sort_integer_extremes(dtype, no_fallback):
    info = torch.iinfo(dtype)
    x = torch.tensor([0, info.max, info.min, -1 if info.min < 0 else 1, info.max - 1, info.min + 1, 1], dtype=dtype)
    check_sort(x)
    check_sort(x, descending=True)


def test_sort_double_precision(no_fallback):
    x = torch.tensor([1.0, 1.0 + 2**-52, 1.0 - 2**-53, -1e-308, 1e-308, 5e-324, -5e-324, 1e308, -1e308],
                     dtype=torch.float64)
    check_sort(x)
    check_sort(x, descending=True)


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_sort_dims_and_strides(dim, no_fallback):
    x = special_values(3 * 2100 * 2, torch.float32).view(3, 2100, 2)
    check_sort(x, dim=dim)
    check_sort(x.transpose(0, 1), dim=dim, descending=True)
    check_sort(x[:, ::3], dim=dim)


def test_sort_many_short_rows(no_fallback):
    for length in [1, 3, 8, 100]:
        check_sort(special_values(50 * length, torch.float32).view(50, length), descending=True)
        check_sort(special_values(50 * length, torch.int64).view(length, 50), dim=0)


def test_sort_out(no_fallback):
    x = special_values(40, torch.float32).view(4, 10)
    values = torch.empty(10, 4, device="vulkan").t()
    indices = torch.empty(0, dtype=torch.long, device="vulkan")
    result = torch.sort(x.to("vulkan"), dim=1, out=(values, indices))
    assert result[0] is values and result[1] is indices
    check = torch.sort(x, dim=1, stable=True)
    torch.testing.assert_close(values.cpu(), check.values, equal_nan=True)
    torch.testing.assert_close(indices.cpu(), check.indices)
    # Values written over the input itself.
    d = x.to("vulkan")
    torch.sort(d, dim=0, descending=True, stable=True, out=(d, indices))
    check = torch.sort(x, dim=0, descending=True, stable=True)
    torch.testing.assert_close(d.cpu(), check.values, equal_nan=True)
    torch.testing.assert_close(indices.cpu(), check.indices)
    with pytest.raises(RuntimeError, match="dtype"):
        torch.sort(x.to("vulkan"), out=(values, torch.empty(0, dtype=torch.int32, device="vulkan")))


def test_sort_errors(no_fallback):
    with pytest.raises(IndexError):
        torch.sort(torch.zeros(3, device="vulkan"), dim=1)


def test_sort_expanded_input(no_fallback):
    x = torch.tensor([3.0, 1.0]).view(2, 1).expand(2, 5000)
    check_sort(x)
    check_sort(x.t(), dim=0)
