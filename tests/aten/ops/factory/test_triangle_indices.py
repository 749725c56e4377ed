"""tril_indices and triu_indices on the vulkan device
(csrc/aten/ops/factory/triangle_indices.cpp), in strict mode against the
CPU: square, wide and tall matrices, offsets past either corner, empty
results, dtypes and bad arguments."""

import pytest
import torch

SHAPES = [(4, 4, 0), (3, 6, 1), (6, 3, -2), (5, 5, 7), (5, 5, -9), (0, 3, 0), (1, 1, 0), (7, 2, 3)]


@pytest.mark.parametrize("row,col,offset", SHAPES, ids=str)
@pytest.mark.parametrize("factory", [torch.tril_indices, torch.triu_indices], ids=lambda f: f.__name__)
def test_matches_cpu(factory, row, col, offset, no_fallback):
    got = factory(row, col, offset, device="vulkan")
    assert got.device.type == "vulkan" and got.dtype == torch.long
    assert torch.equal(got.cpu(), factory(row, col, offset))


def test_dtype_and_bad_arguments(no_fallback):
    got = torch.triu_indices(5, 4, -1, dtype=torch.int32, device="vulkan")
    assert got.dtype == torch.int32 and torch.equal(got.cpu(), torch.triu_indices(5, 4, -1, dtype=torch.int32))
    with pytest.raises(RuntimeError, match="row must be non-negative"):
        torch.tril_indices(-1, 3, device="vulkan")
