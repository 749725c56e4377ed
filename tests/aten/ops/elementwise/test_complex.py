"""torch.complex and torch.polar (csrc/aten/ops/elementwise/complex.cpp)
against the CPU, in strict mode: every real dtype they take (polar refuses
float16, as the CPU and CUDA do), broadcasting, out= (resized, and into a
strided view), and the CPU's errors."""

import math

import pytest
import torch


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.float64], ids=str)
@pytest.mark.parametrize("fn", [torch.complex, torch.polar], ids=lambda f: f.__name__)
def test_matches_cpu(fn, dtype, no_fallback):
    g = torch.Generator().manual_seed(0)
    first = torch.rand(4, 1, 5, generator=g).to(dtype) * 3
    second = ((torch.rand(3, 5, generator=g) - 0.5) * 2 * math.pi).to(dtype)
    if fn is torch.polar and dtype == torch.float16:
        with pytest.raises(RuntimeError, match="not implemented for 'Half'"):
            fn(first.to("vulkan"), second.to("vulkan"))
        return
    expected = fn(first, second)
    got = fn(first.to("vulkan"), second.to("vulkan"))
    assert got.dtype == expected.dtype and got.shape == (4, 3, 5)
    tol = 2e-3 if dtype == torch.float16 else 1e-6
    torch.testing.assert_close(got.cpu(), expected, rtol=tol, atol=tol)

    out = torch.empty(0, dtype=expected.dtype, device="vulkan")
    fn(first.to("vulkan"), second.to("vulkan"), out=out)
    torch.testing.assert_close(out.cpu(), expected, rtol=tol, atol=tol)
    # Into every other column of a wider tensor.
    wide = torch.zeros(4, 3, 10, dtype=expected.dtype).to("vulkan")
    fn(first.to("vulkan"), second.to("vulkan"), out=wide[..., ::2])
    torch.testing.assert_close(wide[..., ::2].cpu(), expected, rtol=tol, atol=tol)
    assert wide[..., 1::2].cpu().abs().max().item() == 0


@pytest.mark.parametrize("fn", [torch.complex, torch.polar], ids=lambda f: f.__name__)
def test_errors_match_cpu(fn, no_fallback):
    a, b = torch.ones(3), torch.ones(3)
    cases = [(a.int(), b.int(), None), (a, b.double(), None), (a, b, torch.empty(3, dtype=torch.complex128))]
    for first, second, out in cases:
        with pytest.raises(RuntimeError) as cpu:
            fn(first, second, **({"out": out} if out is not None else {}))
        kwargs = {"out": out.to("vulkan")} if out is not None else {}
        with pytest.raises(RuntimeError, match=str(cpu.value).split("\n")[0].replace("(", r"\(").replace(")", r"\)")):
            fn(first.to("vulkan"), second.to("vulkan"), **kwargs)
