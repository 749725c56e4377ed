import pytest
import torch

from tests.aten.ops.sort.stable import check_sorting_op, stable_indices
from tests.aten.ops.sort.test_sort import special_values
from tests.opinfo import parametrize


def topk_reference(x, args, kwargs):
    k = args[0]
    dim = args[1] if len(args) > 1 else kwargs.get("dim", -1)
    largest = args[2] if len(args) > 2 else kwargs.get("largest", True)
    return stable_indices(x, dim, largest, k)


@parametrize(["topk"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_sorting_op(op, dtype, variant, topk_reference)


def check_topk(x, k, dim=-1, largest=True):
    values, indices = torch.topk(x.to("vulkan"), k, dim=dim, largest=largest)
    expected = torch.topk(x, k, dim=dim, largest=largest)
    torch.testing.assert_close(values.cpu(), expected.values, equal_nan=True, rtol=0, atol=0)
    torch.testing.assert_close(indices.cpu(), stable_indices(x, dim, largest, k), rtol=0, atol=0)


# Small k of long rows takes tile passes that keep each tile's best; large k sorts.
@pytest.mark.parametrize("n,k", [(1, 1), (5, 0), (5, 5), (100, 7), (2048, 3), (3000, 1), (3000, 64), (3000, 600),
                                 (9000, 17), (9000, 9000)])
@pytest.mark.parametrize("largest", [True, False])
def test_topk_sizes(n, k, largest, no_fallback):
    check_topk(special_values(n, torch.float32), k, largest=largest)


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int8, torch.int64, torch.float16, torch.bfloat16,
                                   torch.float64])
def test_topk_rows(dtype, no_fallback):
    x = special_values(3 * 5000, dtype).view(5000, 3)
    check_topk(x, 5, dim=0)
    check_topk(x.t(), 40, largest=False)


def test_topk_out_and_errors(no_fallback):
    x = special_values(50, torch.float32).view(5, 10)
    values = torch.empty(0, device="vulkan")
    indices = torch.empty(0, dtype=torch.long, device="vulkan")
    result = torch.topk(x.to("vulkan"), 3, out=(values, indices))
    assert result[0] is values and result[1] is indices
    torch.testing.assert_close(values.cpu(), torch.topk(x, 3).values, equal_nan=True)
    torch.testing.assert_close(indices.cpu(), stable_indices(x, -1, True, 3))
    with pytest.raises(RuntimeError, match="k"):
        torch.topk(x.to("vulkan"), 11)
    with pytest.raises(RuntimeError, match="bool"):
        torch.topk(torch.ones(3, dtype=torch.bool, device="vulkan"), 1)
