"""OpInfo checks for ops whose indices the CPU leaves unspecified on ties.

The CPU's default sort and its topk order equal elements arbitrarily; the
device sorts stably, so its indices are compared with the CPU's stable sort
(torch.sort(stable=True) orders ties by position), its values with the op's
own CPU result.
"""

import pytest
import torch

from tests.opinfo import _compare, _samples, _to_device


def stable_indices(x, dim=-1, descending=False, k=None):
    if x.dim() == 0:
        return torch.zeros((), dtype=torch.long)
    indices = torch.sort(x, dim=dim, descending=descending, stable=True).indices
    return indices if k is None else indices.narrow(dim, 0, k)


def check_sorting_op(op, dtype, variant, reference):
    """`reference(input, args, kwargs)` gives the stable indices of the sample,
    or None when the op returns values only; an op returning indices only is
    compared with them, one returning (values, indices) with both."""
    if variant == "out" and not op.supports_out:
        pytest.skip("no out= variant")
    checked = 0
    for sample in _samples(op, dtype):
        args, kwargs = sample.args, dict(sample.kwargs)
        context = f"{op.name} {variant} {dtype} input {tuple(sample.input.shape)} args {args} kwargs {kwargs}"
        expected = op(sample.input, *args, **kwargs)
        indices = reference(sample.input, args, kwargs)
        d_input = _to_device(sample.input)
        if variant == "out":
            if not isinstance(expected, torch.Tensor):
                continue
            actual = torch.empty_like(expected, device="vulkan")
            assert op(d_input, *args, **kwargs, out=actual) is actual, context
        else:
            actual = op(d_input, *args, **kwargs)
        if isinstance(expected, torch.Tensor):
            _compare(actual, expected if indices is None else indices, dtype, context)
        else:
            _compare(actual[0], expected[0], dtype, context)
            _compare(actual[1], indices, dtype, context)
        checked += 1
    assert checked
