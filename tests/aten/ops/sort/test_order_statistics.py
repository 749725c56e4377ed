"""median, nanmedian and kthvalue on the vulkan device
(csrc/aten/ops/sort/order_statistics.cpp), in strict mode against the CPU:
NaN rules, ties (the middle of equal values in input order, as the CPU's
median), keepdim, whole-tensor forms, and OpInfo samples."""

import pytest
import torch

from tests.opinfo import check_op, parametrize

NAN = float("nan")


def test_nan_rules_and_ties(no_fallback):
    x = torch.tensor([[3.0, NAN, 1.0, NAN, 2.0], [5.0, 1.0, 1.0, 1.0, 0.0]])
    v = x.to("vulkan")
    for fn in (lambda t: torch.median(t, 1), lambda t: torch.nanmedian(t, 1),
               lambda t: torch.median(t, 1, keepdim=True), lambda t: torch.nanmedian(t, 0)):
        expected, actual = fn(x), fn(v)
        torch.testing.assert_close(actual.values.cpu(), expected.values, equal_nan=True)
        torch.testing.assert_close(actual.indices.cpu(), expected.indices)
    torch.testing.assert_close(torch.median(v).cpu(), torch.median(x), equal_nan=True)
    torch.testing.assert_close(torch.nanmedian(v).cpu(), torch.nanmedian(x))


def test_kthvalue(no_fallback):
    torch.manual_seed(0)
    x = torch.randn(4, 7)
    for k in (1, 4, 7):
        expected, actual = torch.kthvalue(x, k, 1), torch.kthvalue(x.to("vulkan"), k, 1)
        torch.testing.assert_close(actual.values.cpu(), expected.values)
        torch.testing.assert_close(actual.indices.cpu(), expected.indices)
    # Ties: the value is defined, the index names one of the tied elements.
    t = torch.tensor([[5.0, 1.0, 1.0, 1.0, 0.0]])
    got = torch.kthvalue(t.to("vulkan"), 2, 1)
    assert got.values.item() == 1.0 and t[0, got.indices.item()] == 1.0
    with pytest.raises(RuntimeError, match="out of range"):
        torch.kthvalue(x.to("vulkan"), 8, 1)


@parametrize(["median", "nanmedian", "kthvalue"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    if op.name == "kthvalue" and not dtype.is_floating_point:
        pytest.skip("integer samples tie, and which tied index kthvalue returns is the CPU's "
                    "quickselect's choice (test_kthvalue checks ties by value)")
    check_op(op, dtype, variant)
