import pytest
import torch

from tests.helpers import assert_out_matches_cpu, assert_raises_as_cpu
from tests.opinfo import check_op, parametrize

OPS = ["index_select", "gather", "scatter", "scatter_add", "take", "__getitem__", "index_put",
       "nn.functional.embedding"]
REDUCE_OPS = [("scatter_reduce", r) for r in ["sum", "prod", "mean", "amax", "amin"]]


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


@parametrize(REDUCE_OPS)
def test_scatter_reduce(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("norm_type", [1.0, 2.0, float("inf")])
def test_embedding_renorm_scales_each_named_row_once(dtype, norm_type, no_fallback):
    weight = (torch.randn(8, 5) * 3).to(dtype)
    weight[6] = 0.01  # named but already within max_norm
    idx = torch.tensor([[0, 2, 2, 7], [6, 0, 2, 3]])  # repeated indices
    expected = weight.clone()
    torch.embedding_renorm_(expected, idx, 1.5, norm_type)
    actual = weight.to("vulkan")
    torch.embedding_renorm_(actual, idx.to("vulkan"), 1.5, norm_type)
    tol = {torch.float32: 1e-6, torch.float16: 1e-3, torch.bfloat16: 1e-2}[dtype]
    torch.testing.assert_close(actual.cpu(), expected, rtol=tol, atol=tol)
    assert torch.equal(actual.cpu()[[1, 4, 5]], weight[[1, 4, 5]])  # rows not named stay


def test_embedding_renorm_errors(no_fallback):
    with pytest.raises(RuntimeError, match="2-D"):
        torch.embedding_renorm_(torch.ones(3, device="vulkan"), torch.tensor([0], device="vulkan"), 1.0, 2.0)
    with pytest.raises(RuntimeError, match="Long or Int"):
        torch.embedding_renorm_(torch.ones(3, 2, device="vulkan"), torch.tensor([0.0], device="vulkan"), 1.0, 2.0)


def test_embedding_backward(no_fallback):
    for padding_idx, scale in [(None, False), (2, False), (None, True), (1, True)]:
        weight = torch.randn(6, 3)
        idx = torch.tensor([[0, 2, 1, 2], [5, 2, 0, 1]])
        grads = []
        for device in ["cpu", "vulkan"]:
            w = weight.to(device).detach().requires_grad_()
            out = torch.nn.functional.embedding(idx.to(device), w, padding_idx=padding_idx,
                                                scale_grad_by_freq=scale)
            (out * torch.arange(3.0, device=device)).sum().backward()
            grads.append(w.grad.cpu())
        torch.testing.assert_close(grads[1], grads[0])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64, torch.int8, torch.bool])
def test_index_put_accumulate_duplicates(dtype, no_fallback):
    x = torch.zeros(5, 3).to(dtype)
    idx = torch.tensor([0, 2, 0, 0, 4])
    values = torch.ones(5, 3).to(dtype)
    expected = x.index_put((idx,), values, accumulate=True)
    actual = x.to("vulkan").index_put((idx.to("vulkan"),), values.to("vulkan"), accumulate=True)
    torch.testing.assert_close(actual.cpu(), expected)


def test_advanced_indexing_forms(no_fallback):
    x = torch.arange(60.0).view(3, 4, 5)
    d = x.to("vulkan")
    i = torch.tensor([2, 0, -1])
    j = torch.tensor([[1], [3]])
    for key in [(i,), (slice(None), i), (i, slice(None), j[:, :1].view(-1)[:1]), (slice(None), j, i),
                (i, slice(None), i), (x[:, 0, 0] > 10,)]:
        dkey = tuple(k.to("vulkan") if isinstance(k, torch.Tensor) else k for k in key)
        torch.testing.assert_close(d[dkey].cpu(), x[key])
    y = x.clone()
    dy = d.clone()
    y[i, :, i] = -1.0
    dy[i.to("vulkan"), :, i.to("vulkan")] = -1.0
    torch.testing.assert_close(dy.cpu(), y)


MASKED_OPS = ["masked_select", "masked_scatter", "nonzero"]


@parametrize(MASKED_OPS)
def test_masked(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


@pytest.mark.parametrize("n", [0, 1, 7, 1000, 5000])
def test_nonzero_sizes(n, no_fallback):
    x = (torch.rand(n) > 0.5) if n else torch.zeros(0, dtype=torch.bool)
    torch.testing.assert_close(x.to("vulkan").nonzero().cpu(), x.nonzero())
    y = torch.randn(3, 1, n) * (torch.rand(3, 1, n) > 0.3)
    torch.testing.assert_close(y.to("vulkan").nonzero().cpu(), y.nonzero())
    torch.testing.assert_close(torch.tensor(2.0, device="vulkan").nonzero().cpu(), torch.tensor(2.0).nonzero())


# index_select on dim 0 of a contiguous table gathers whole rows, in 16-byte
# units where the row size and both addresses allow, narrower units otherwise.
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.float64, torch.int8, torch.bool])
@pytest.mark.parametrize("cols", [1, 3, 8, 16, 37])
def test_index_select_rows(dtype, cols, no_fallback):
    table = torch.randn(20, cols).mul(10).to(dtype)
    ids = torch.tensor([3, 0, 19, 3, 19, 7] * 50)  # negative ones are out of range, as on the CPU
    expected = table.index_select(0, ids)
    torch.testing.assert_close(table.to("vulkan").index_select(0, ids.to("vulkan")).cpu(), expected)
    # int32 indices, strided indices and a sliced (misaligned) table start
    torch.testing.assert_close(table.to("vulkan").index_select(0, ids.int().to("vulkan")).cpu(), expected)
    strided = torch.stack([ids, ids]).t()[:, 0]
    torch.testing.assert_close(table.to("vulkan").index_select(0, strided.to("vulkan")).cpu(), expected)
    sliced = table.to("vulkan")[1:]
    torch.testing.assert_close(sliced.index_select(0, ids.clamp(0, 18).to("vulkan")).cpu(),
                               table[1:][ids.clamp(0, 18)])


def test_index_select_rows_of_3d_tables_and_empty(no_fallback):
    table = torch.randn(6, 4, 5)
    ids = torch.tensor([5, 1, 1])
    torch.testing.assert_close(table.to("vulkan").index_select(0, ids.to("vulkan")).cpu(), table[ids])
    empty = torch.tensor([], dtype=torch.long)
    assert table.to("vulkan").index_select(0, empty.to("vulkan")).shape == (0, 4, 5)
    assert torch.empty(0, 3).to("vulkan").index_select(0, empty.to("vulkan")).shape == (0, 3)
    # a non-contiguous table takes the elementwise gather
    t = table.transpose(0, 1).contiguous().transpose(0, 1)
    torch.testing.assert_close(t.to("vulkan").index_select(0, ids.to("vulkan")).cpu(), table[ids])


def test_embedding_rows(no_fallback):
    weight = torch.randn(30, 64)
    idx = torch.randint(0, 30, (4, 9))
    idx[0, 0] = 2
    for padding_idx in [None, 2]:
        out = torch.nn.functional.embedding(idx.to("vulkan"), weight.to("vulkan"), padding_idx=padding_idx)
        torch.testing.assert_close(out.cpu(), torch.nn.functional.embedding(idx, weight, padding_idx=padding_idx))


@pytest.mark.parametrize("size", [0, 3, 50])
def test_nonzero_static(size, no_fallback):
    x = torch.randn(4, 5) * (torch.rand(4, 5) > 0.5)
    got = torch.nonzero_static(x.to("vulkan"), size=size, fill_value=-7)
    assert torch.equal(got.cpu(), torch.nonzero_static(x, size=size, fill_value=-7))
    assert torch.nonzero_static(torch.zeros(0, 2, device="vulkan"), size=2).cpu().tolist() == [[-1, -1], [-1, -1]]


def nonzero_static(size, fill_value=-1):
    return lambda x, out: torch.nonzero_static(x, size=size, fill_value=fill_value, out=out)


@pytest.mark.parametrize("size", [0, 3, 50])
def test_nonzero_static_out(size, no_fallback):
    x = torch.randn(4, 5) * (torch.rand(4, 5) > 0.5)
    assert_out_matches_cpu(nonzero_static(size, -7), x, dtype=torch.int64)
    assert_out_matches_cpu(nonzero_static(size), torch.zeros(0, 2), dtype=torch.int64)
    assert_out_matches_cpu(nonzero_static(size), torch.tensor(3.0), dtype=torch.int64)  # [size, 0]
    out = torch.full((2, size), 5, dtype=torch.int64, device="vulkan").t()  # strided, the right size
    assert nonzero_static(size, -7)(x.to("vulkan"), out) is out
    assert torch.equal(out.cpu(), torch.nonzero_static(x, size=size, fill_value=-7))
    assert_raises_as_cpu(nonzero_static(size), x, torch.empty(0))
    assert_raises_as_cpu(nonzero_static(-1), x, torch.empty(0, dtype=torch.int64))
