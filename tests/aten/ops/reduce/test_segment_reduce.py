import pytest
import torch

from tests.opinfo import _samples, check_op, parametrize

OPS = [("_segment_reduce", "lengths"), ("_segment_reduce", "offsets")]


@parametrize(OPS, variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


def _to_vulkan(value):
    return value.to("vulkan") if isinstance(value, torch.Tensor) else value


# The gradient of every OpInfo sample (all five reductions, with and without
# `initial`, lengths and offsets, several axes) against the CPU's.
@parametrize(OPS, variants=["functional"])
def test_gradients_of_opinfo_samples(op, dtype, variant, no_fallback):
    if dtype not in (torch.float32, torch.float64):
        pytest.skip("gradients checked in float32 and float64")
    for sample in _samples(op, dtype):
        data = sample.input.detach().requires_grad_()
        expected = op(data, *sample.args, **sample.kwargs)
        grad = torch.randn_like(expected)
        expected.backward(grad)
        d_data = data.detach().to("vulkan").requires_grad_()
        kwargs = {k: _to_vulkan(v) for k, v in sample.kwargs.items()}
        got = op(d_data, *[_to_vulkan(a) for a in sample.args], **kwargs)
        got.backward(grad.to("vulkan"))
        torch.testing.assert_close(got.detach().cpu(), expected.detach(), equal_nan=True)
        torch.testing.assert_close(d_data.grad.cpu(), data.grad, equal_nan=True, msg=str(sample.kwargs))


# Ties and NaNs under max and min (a positive gradient is shared among tied
# values, a negative one is not, as the CPU's kernel does it), zeros under
# prod (one zero: the product of the others; two: nothing), empty segments,
# and `initial` in every reduction.
@pytest.mark.parametrize("reduce", ["max", "min", "sum", "mean", "prod"])
@pytest.mark.parametrize("initial", [None, 2.0])
def test_ties_nans_zeros_and_empty_segments(reduce, initial, no_fallback):
    data = torch.tensor([1.0, 3.0, 3.0, 2.0, 5.0, 0.0, 0.0, 4.0, float("nan"), 1.0, 0.0, 6.0])
    lengths = torch.tensor([3, 2, 0, 3, 2, 2])
    grad = torch.tensor([-2.0, 4.0, 6.0, 1.0, 3.0, 5.0])
    x = data.clone().requires_grad_()
    expected = torch.segment_reduce(x, reduce, lengths=lengths, initial=initial)
    expected.backward(grad)
    d = data.to("vulkan").requires_grad_()
    got = torch.segment_reduce(d, reduce, lengths=lengths.to("vulkan"), initial=initial)
    got.backward(grad.to("vulkan"))
    torch.testing.assert_close(got.detach().cpu(), expected.detach(), equal_nan=True)
    torch.testing.assert_close(d.grad.cpu(), x.grad, equal_nan=True)


def test_bad_arguments_raise_as_on_the_cpu(no_fallback):
    data = torch.ones(5, device="vulkan")
    with pytest.raises(RuntimeError, match="reduce argument must be"):
        torch.segment_reduce(data, "median", lengths=torch.tensor([5], device="vulkan"))
    with pytest.raises(RuntimeError, match="Expected all rows of lengths"):
        torch.segment_reduce(data, "sum", lengths=torch.tensor([3, 3], device="vulkan"))
