"""bincount, histc, histogram and histogramdd on the vulkan device
(csrc/aten/ops/reduce/histogram.cpp), in strict mode against the CPU:
weights and their dtypes, minlength, empty inputs, values outside the range
and NaN, the range taken from the data, density, out=, and the errors."""

import re

import pytest
import torch

from tests.opinfo import check_op, parametrize


def V(t):
    return t.to("vulkan")


@pytest.mark.parametrize("weights", [None, torch.float32, torch.float64, torch.int32], ids=str)
def test_bincount(weights, no_fallback):
    torch.manual_seed(0)
    x = torch.randint(0, 9, (50,))
    w = None if weights is None else (torch.rand(50) * 10).to(weights)
    for minlength in (0, 20):
        expected = torch.bincount(x, w, minlength)
        actual = torch.bincount(V(x), None if w is None else V(w), minlength)
        torch.testing.assert_close(actual.cpu(), expected)
    torch.testing.assert_close(torch.bincount(V(torch.tensor([], dtype=torch.long)), minlength=3).cpu(),
                               torch.zeros(3, dtype=torch.long))
    with pytest.raises(RuntimeError, match="non-negative"):
        torch.bincount(V(torch.tensor([1, -1])))


def test_histc(no_fallback):
    torch.manual_seed(0)
    x = torch.randn(1000)
    x[:3] = torch.tensor([float("nan"), 10.0, -10.0])
    for bins, low, high in ((4, -1, 1), (7, -2.5, 0.5)):
        torch.testing.assert_close(torch.histc(V(x), bins, low, high).cpu(), torch.histc(x, bins, low, high))
    finite = x[1:]  # the range from the data (min == max), NaN-free as the CPU requires
    torch.testing.assert_close(torch.histc(V(finite), 13).cpu(), torch.histc(finite, 13))
    with pytest.raises(RuntimeError, match="is not finite"):
        torch.histc(V(x), 13)
    torch.testing.assert_close(torch.histc(V(torch.full((5,), 2.0)), 4).cpu(), torch.histc(torch.full((5,), 2.0), 4))
    with pytest.raises(RuntimeError, match="max must be larger than min"):
        torch.histc(V(x), 4, 1, -1)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_histogram(dtype, no_fallback):
    torch.manual_seed(0)
    x = (torch.randn(7, 40) * 2).to(dtype)
    x[0, :3] = torch.tensor([float("nan"), 10.0, -10.0])
    w = torch.rand(7, 40, dtype=dtype)
    w[0, 0] = float("nan")  # NaN's own weight: the value is in no bin
    edges = torch.tensor([-3.0, -1.0, 0.0, 0.5, 2.5], dtype=dtype)
    finite = x[1:]
    calls = [(x, dict(bins=edges)), (x, dict(bins=edges, weight=w, density=True)),
             (x, dict(bins=9, range=(-2.0, 3.0))), (x, dict(bins=9, range=(-2.0, 3.0), weight=w)),
             (finite, dict(bins=13)), (finite, dict(bins=5, density=True)),
             (torch.full((5,), 2.0, dtype=dtype), dict(bins=4)),  # min == max: widened by 0.5
             (torch.empty(0, dtype=dtype), dict(bins=3))]  # numpy's default range, [0, 1]
    for t, kwargs in calls:
        expected = torch.histogram(t, **kwargs)
        got = torch.histogram(V(t), **{k: V(v) if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()})
        for g, e in zip(got, expected):
            torch.testing.assert_close(g.cpu(), e)
    hist, bin_edges = torch.empty(2, dtype=dtype, device="vulkan"), torch.empty(0, dtype=dtype, device="vulkan")
    torch.histogram(V(finite), 6, out=(hist, bin_edges))
    for g, e in zip((hist, bin_edges), torch.histogram(finite, 6)):
        torch.testing.assert_close(g.cpu(), e)
    torch.histogram(V(x), V(edges), weight=V(w), out=(hist, bin_edges))
    for g, e in zip((hist, bin_edges), torch.histogram(x, edges, weight=w)):
        torch.testing.assert_close(g.cpu(), e)


def test_histogram_errors_match_cpu(no_fallback):
    x = torch.randn(10)
    cases = [(x, dict(bins=torch.tensor([0.0, 1.0], dtype=torch.float64))), (x, dict(bins=torch.zeros(2, 2))),
             (x, dict(bins=torch.zeros(0))), (x, dict(bins=0)), (x, dict(bins=3, range=(1.0, 0.0))),
             (x, dict(bins=3, range=(0.0, float("inf")))), (torch.tensor([1.0, float("nan")]), dict(bins=3)),
             (x.int(), dict(bins=3)), (x.int(), dict(bins=torch.tensor([0, 1], dtype=torch.int32))),
             (x, dict(bins=3, weight=torch.ones(10, dtype=torch.float64))), (x, dict(bins=3, weight=torch.ones(9)))]
    for t, kwargs in cases:
        with pytest.raises(RuntimeError) as cpu:
            torch.histogram(t, **kwargs)
        message = re.escape(str(cpu.value).split("\n")[0])
        with pytest.raises(RuntimeError, match=message):
            torch.histogram(V(t), **{k: V(v) if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()})


def _device(value):
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], torch.Tensor):
        return [V(v) for v in value]
    return V(value) if isinstance(value, torch.Tensor) else value


# histogramdd: counted bins with and without a range, given edges of unequal
# widths, weights, density, points outside and NaN, empty inputs, batches of
# points (the input's leading dims), and the errors.
def test_histogramdd(no_fallback):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(2, 50, 3, generator=g, dtype=torch.float64)
    with_nan = x.clone()
    with_nan[0, 0, 1] = float("nan")  # (without a range, the CPU rejects it: not finite)
    w = torch.rand(2, 50, generator=g, dtype=torch.float64)
    edges = [torch.tensor([-2.0, -0.5, 0.0, 2.0], dtype=torch.float64), torch.linspace(-1, 1, 3, dtype=torch.float64),
             torch.tensor([0.0, 0.1, 3.0], dtype=torch.float64)]
    cases = [dict(bins=[4, 5, 6]), dict(bins=3, range=[-1.0, 1.0, -2.0, 0.5, 0.0, 3.0]), dict(bins=edges),
             dict(bins=[3, 2, 4], weight=w, density=True), dict(bins=edges, weight=w), dict(bins=[2, 3, 2], density=True)]
    for kwargs in cases:
        counted = isinstance(kwargs["bins"], list) and isinstance(kwargs["bins"][0], int) and "range" not in kwargs
        for t in (x, x.float(), x[:, :0]) + (() if counted else (with_nan,)):
            args = {k: (v[:, :t.shape[1]].to(t.dtype) if isinstance(v, torch.Tensor) else
                        [e.to(t.dtype) for e in v] if isinstance(v, list) and isinstance(v[0], torch.Tensor) else v)
                    for k, v in kwargs.items()}
            expected = torch.histogramdd(t, **args)
            got = torch.histogramdd(V(t), **{k: _device(v) for k, v in args.items()})
            torch.testing.assert_close(got.hist.cpu(), expected.hist, equal_nan=True)
            for g_edges, e_edges in zip(got.bin_edges, expected.bin_edges):
                torch.testing.assert_close(g_edges.cpu(), e_edges)


def test_histogramdd_errors_match_cpu(no_fallback):
    x = torch.randn(10, 2)
    cases = [(torch.randn(5), dict(bins=[3])), (x, dict(bins=[3, 4, 5])), (x, dict(bins=[3, 4], range=[0.0, 1.0])),
             (x, dict(bins=[3, 4], range=[0.0, 1.0, 2.0, 1.0])), (x, dict(bins=[3, 0])),
             (x, dict(bins=[3, 4], range=[0.0, float("inf"), 0.0, 1.0])), (x, dict(bins=[3, 4], weight=torch.ones(9))),
             (x, dict(bins=[torch.linspace(0, 1, 3), torch.linspace(0, 1, 3, dtype=torch.float64)])),
             (x, dict(bins=[torch.linspace(0, 1, 3), torch.zeros(0)]))]
    for t, kwargs in cases:
        with pytest.raises(RuntimeError) as cpu:
            torch.histogramdd(t, **kwargs)
        message = re.escape(str(cpu.value).split("\n")[0])
        with pytest.raises(RuntimeError, match=message):
            torch.histogramdd(V(t), **{k: _device(v) for k, v in kwargs.items()})
    with pytest.raises(NotImplementedError, match="not implemented for 'Half'"):
        torch.histogramdd(V(x.half()), bins=[3, 4])


@parametrize(["bincount", "histc", "histogramdd"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
