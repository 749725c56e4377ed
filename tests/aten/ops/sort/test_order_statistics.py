"""median, nanmedian, kthvalue and mode on the vulkan device
(csrc/aten/ops/sort/order_statistics.cpp), in strict mode against the CPU:
NaN rules, ties (the middle of equal values in input order, as the CPU's
median; the smallest of equally frequent values for mode), keepdim,
whole-tensor forms, and OpInfo samples."""

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


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool])
def test_mode(dtype, no_fallback):
    torch.manual_seed(0)
    x = torch.randint(0, 4, (5, 3, 9)).to(dtype)
    x[0, 0] = torch.tensor([2, 1, 2, 1, 3, 3, 0, 3, 0]).to(dtype)  # 1 and 2 tie under 3
    for dim, keepdim in ((2, False), (0, True), (-2, False)):
        expected, actual = torch.mode(x, dim, keepdim), torch.mode(x.to("vulkan"), dim, keepdim)
        torch.testing.assert_close(actual.values.cpu(), expected.values)
        # The CPU picks among the mode's positions by an unstable sort; ours is
        # the last one. Either names an element equal to the mode.
        picked = x.gather(dim, actual.indices.cpu() if keepdim else actual.indices.cpu().unsqueeze(dim))
        torch.testing.assert_close(picked if keepdim else picked.squeeze(dim), expected.values)
    out = (torch.empty(0, dtype=dtype, device="vulkan"), torch.empty(0, dtype=torch.long, device="vulkan"))
    torch.mode(x.to("vulkan"), 1, out=out)
    torch.testing.assert_close(out[0].cpu(), torch.mode(x, 1).values)
    assert torch.mode(torch.tensor(5.0, device="vulkan")).values.item() == 5.0



@pytest.mark.parametrize("fn", [torch.median, torch.nanmedian, torch.mode, lambda x, d: torch.kthvalue(x, 1, d)],
                         ids=["median", "nanmedian", "mode", "kthvalue"])
def test_empty_slices(fn, no_fallback):
    with pytest.raises(IndexError, match="Expected reduction dim 1 to have non-zero size"):
        fn(torch.empty(2, 0, device="vulkan"), 1)
    assert fn(torch.empty(0, 3, device="vulkan"), 1).values.shape == (0,)


@parametrize(["median", "nanmedian", "kthvalue", "mode"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    if op.name == "mode" and dtype in (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32,
                                       torch.int64):
        pytest.skip("integer samples tie, and which of the mode's positions the index names is "
                    "the CPU's unstable sort's choice (test_mode checks ties by value)")
    if op.name == "kthvalue" and not dtype.is_floating_point:
        pytest.skip("integer samples tie, and which tied index kthvalue returns is the CPU's "
                    "quickselect's choice (test_kthvalue checks ties by value)")
    check_op(op, dtype, variant)
