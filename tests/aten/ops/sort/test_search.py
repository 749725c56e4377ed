import pytest
import torch

from tests.opinfo import _compare, _to_device, check_op, parametrize

@parametrize(["searchsorted", "bucketize"], variants=["functional", "out"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


# check_op takes the first samples only, which for searchsorted are all empty.
@parametrize(["searchsorted", "bucketize"], variants=["functional"])
def test_all_samples(op, dtype, variant, no_fallback):
    for sample in op.sample_inputs("cpu", dtype):
        expected = op(sample.input, *sample.args, **sample.kwargs)
        actual = op(_to_device(sample.input), *_to_device(sample.args),
                    **{k: _to_device(v) for k, v in sample.kwargs.items()})
        _compare(actual, expected, dtype, f"{op.name} {tuple(sample.input.shape)} {sample.args} {sample.kwargs}")


def same(actual, expected):
    assert actual.device.type == "vulkan" and actual.dtype == expected.dtype
    torch.testing.assert_close(actual.cpu(), expected, rtol=0, atol=0)


@pytest.mark.parametrize("right", [False, True])
def test_searchsorted_special_values(right, no_fallback):
    nan, inf = float("nan"), float("inf")
    boundaries = torch.tensor([-inf, -1.0, 0.0, 0.0, 2.5, inf, nan])
    values = torch.tensor([[nan, -inf, -1.0, -0.0, 0.0, 1.0], [2.5, 3.0, inf, -2.0, nan, 0.1]])
    d_b, d_v = boundaries.to("vulkan"), values.to("vulkan")
    same(torch.searchsorted(d_b, d_v, right=right), torch.searchsorted(boundaries, values, right=right))
    same(torch.bucketize(d_v, d_b, right=right, out_int32=True),
         torch.bucketize(values, boundaries, right=right, out_int32=True))
    rows = boundaries.view(1, -1).expand(2, -1).contiguous()
    same(torch.searchsorted(rows.to("vulkan"), d_v, side="right" if right else "left"),
         torch.searchsorted(rows, values, side="right" if right else "left"))


def test_searchsorted_sorter_and_promotion(no_fallback):
    unsorted = torch.tensor([[5, 1, 3, 3, 9], [0, -2, 7, 4, 4]])
    sorter = torch.argsort(unsorted, stable=True)
    values = torch.tensor([[3.5, 3, 10], [4, -3, 0.5]])
    for right in [False, True]:
        same(torch.searchsorted(unsorted.to("vulkan"), values.to("vulkan"), sorter=sorter.to("vulkan"), right=right),
             torch.searchsorted(unsorted, values, sorter=sorter, right=right))


def test_scalar_forms(no_fallback):
    boundaries = torch.tensor([1, 3, 5, 7])
    for value in [0, 3, 4.5, 8]:
        same(torch.searchsorted(boundaries.to("vulkan"), value), torch.searchsorted(boundaries, value))
        same(torch.bucketize(value, boundaries.to("vulkan"), right=True), torch.bucketize(value, boundaries, right=True))
    out = torch.empty(0, dtype=torch.int32, device="vulkan")
    torch.searchsorted(boundaries.to("vulkan"), 6, out_int32=True, out=out)
    same(out, torch.searchsorted(boundaries, 6, out_int32=True))


def test_search_errors(no_fallback):
    b = torch.tensor([1.0, 2.0], device="vulkan")
    with pytest.raises(RuntimeError, match="boundaries tensor must be 1 dimension"):
        torch.bucketize(torch.zeros(2, 2, device="vulkan"), b.view(1, 2))
    with pytest.raises(RuntimeError, match="side"):
        torch.searchsorted(b, b, side="middle")
    with pytest.raises(RuntimeError, match="dtype"):
        torch.searchsorted(b, b, out=torch.empty(2, dtype=torch.int32, device="vulkan"))
