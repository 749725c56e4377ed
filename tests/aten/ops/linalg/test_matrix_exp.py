"""linalg.matrix_exp and _compute_linear_combination on the vulkan device
(csrc/aten/ops/linalg/matrix_exp.cpp), in strict mode against the CPU."""

import pytest
import torch

from tests.helpers import run_python
from tests.opinfo import check_op, parametrize

FLOATS = [torch.float32, torch.float64]
TOLERANCES = {torch.float32: (1e-4, 1e-5), torch.float64: (1e-10, 1e-12)}


@parametrize(["matrix_exp"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    if dtype in (torch.float16, torch.bfloat16):
        # The CPU reads its float64 coefficient tables as 16-bit numbers
        # (inf and NaN results); its float32 results are the reference.
        check_op(op, dtype, variant, upcast_16_bit=True,
                 tolerances={torch.float16: (1e-2, 1e-2), torch.bfloat16: (5e-2, 5e-2)})
    else:
        check_op(op, dtype, variant, tolerances=TOLERANCES)


def matrices(shape, norm, dtype, seed=0):
    """Random matrices scaled to the given 1-norm."""
    a = torch.randn(shape, generator=torch.Generator().manual_seed(seed), dtype=dtype)
    return a * (norm / a.abs().sum(-2).amax(-1)[..., None, None])


@pytest.mark.parametrize("dtype", FLOATS)
def test_every_norm_range(dtype, no_fallback):
    # One matrix at a time: the CPU takes the approximant of the norm's range
    # (degree 1 up to 18 with scaling), the device always degree 18.
    for i, norm in enumerate([1e-9, 1e-5, 1e-2, 0.2, 1.0, 2.5, 8.0, 40.0]):
        a = matrices((4, 4), norm, dtype, seed=i)
        torch.testing.assert_close(torch.linalg.matrix_exp(a.to("vulkan")).cpu(),
                                   torch.linalg.matrix_exp(a), rtol=TOLERANCES[dtype][0], atol=TOLERANCES[dtype][1])


@pytest.mark.parametrize("dtype", FLOATS)
def test_batch_of_mixed_norms(dtype, no_fallback):
    # Each matrix squares its own number of times.
    a = matrices((2, 3, 3, 3), 1.0, dtype) * torch.tensor([0.001, 0.5, 3.0, 20.0, 0.0, 100.0], dtype=dtype).view(2, 3, 1, 1)
    torch.testing.assert_close(torch.linalg.matrix_exp(a.to("vulkan")).cpu(), torch.linalg.matrix_exp(a),
                               rtol=TOLERANCES[dtype][0], atol=TOLERANCES[dtype][1])


@pytest.mark.parametrize("dtype", FLOATS)
def test_large_norm_rotation(dtype, no_fallback):
    # exp of a skew-symmetric matrix is a rotation: bounded however many
    # squarings the norm takes.
    a = torch.randn(5, 5, generator=torch.Generator().manual_seed(3), dtype=dtype)
    a = 30 * (a - a.T)
    got = torch.linalg.matrix_exp(a.to("vulkan")).cpu()
    torch.testing.assert_close(got, torch.linalg.matrix_exp(a), rtol=0, atol=1e-3 if dtype == torch.float32 else 1e-9)
    torch.testing.assert_close(got @ got.T, torch.eye(5, dtype=dtype), rtol=0, atol=1e-3 if dtype == torch.float32 else 1e-9)


def test_trivial_sizes(no_fallback):
    for shape in [(1, 1), (3, 1, 1), (0, 3, 3), (2, 0, 0), (2, 0, 4, 4)]:
        a = torch.randn(shape, dtype=torch.float64)
        got = torch.linalg.matrix_exp(a.to("vulkan"))
        assert got.shape == a.shape
        torch.testing.assert_close(got.cpu(), torch.linalg.matrix_exp(a))
    with pytest.raises(RuntimeError, match="must be batches of square matrices"):
        torch.linalg.matrix_exp(torch.ones(2, 3, device="vulkan"))
    with pytest.raises(RuntimeError, match="Expected a floating point or complex tensor"):
        torch.linalg.matrix_exp(torch.ones(2, 2, dtype=torch.int64, device="vulkan"))


def test_nan_gives_nan(no_fallback):
    a = torch.eye(3)
    a[1, 1] = float("nan")
    assert torch.linalg.matrix_exp(a.to("vulkan")).cpu().isnan().all()


def test_method(no_fallback):
    a = matrices((2, 3, 3), 2.0, torch.float32)
    torch.testing.assert_close(a.to("vulkan").matrix_exp().cpu(), torch.matrix_exp(a), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype", FLOATS)
def test_backward(dtype, no_fallback):
    # The gradient is matrix_exp of the block matrix [[A^T, G], [0, A^T]].
    a = matrices((2, 3, 3), 1.5, dtype, seed=5)
    g = torch.randn(2, 3, 3, dtype=dtype)
    d = a.to("vulkan").requires_grad_()
    c = a.clone().requires_grad_()
    (got,) = torch.autograd.grad(torch.linalg.matrix_exp(d), d, g.to("vulkan"))
    (expected,) = torch.autograd.grad(torch.linalg.matrix_exp(c), c, g)
    torch.testing.assert_close(got.cpu(), expected, rtol=TOLERANCES[dtype][0], atol=TOLERANCES[dtype][1])
    if dtype == torch.float64:
        assert torch.autograd.gradcheck(torch.linalg.matrix_exp, (matrices((3, 3), 0.7, dtype).to("vulkan").requires_grad_(),))


def test_full_float32_products_under_reduced_matmul_precision():
    # ATen's NoTF32Guard keeps the bfloat16 route of "medium" precision away
    # from the approximant (the route is forced here on any device).
    proc = run_python("""
        import torch, torchvulkan
        torch.set_float32_matmul_precision("medium")
        a = torch.randn(6, 6, generator=torch.Generator().manual_seed(0)) / 3
        d = a.to("vulkan")
        assert not torch.allclose((d @ d).cpu(), a @ a, rtol=1e-4, atol=1e-5)  # the route is taken
        torch.testing.assert_close(torch.linalg.matrix_exp(d).cpu(), torch.linalg.matrix_exp(a), rtol=1e-4, atol=1e-5)
    """, {"TORCHVULKAN_FP32_MATMUL_VIA_BF16": "1", "TORCHVULKAN_STRICT": "1"})
    assert proc.returncode == 0, proc.stderr[-2000:]


LINEAR_COMBINATION_DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
                             torch.int16, torch.int8, torch.uint8, torch.bool]


def operands(dtype, shape=(3, 2, 4)):
    g = torch.Generator().manual_seed(0)
    if dtype == torch.bool:
        return torch.rand(shape, generator=g) > 0.5, torch.rand(2, shape[0], generator=g) > 0.5
    if dtype.is_floating_point:
        return torch.randn(shape, generator=g).to(dtype), torch.randn(2, shape[0], generator=g).to(dtype)
    return torch.randint(0, 5, shape, generator=g, dtype=dtype), torch.randint(0, 5, (2, shape[0]), generator=g, dtype=dtype)


@pytest.mark.parametrize("dtype", LINEAR_COMBINATION_DTYPES, ids=str)
def test_linear_combination(dtype, no_fallback):
    x, c = operands(dtype)
    # The CPU sums in the input's dtype, the device's product in float32.
    tolerances = {"rtol": 1e-2, "atol": 2e-2} if dtype in (torch.float16, torch.bfloat16) else {}
    got = torch.ops.aten._compute_linear_combination(x.to("vulkan"), c.to("vulkan"))
    torch.testing.assert_close(got.cpu(), torch.ops.aten._compute_linear_combination(x, c), **tolerances)
    # out= adds to what out holds.
    out = operands(dtype, (2, 2, 4))[0]
    d_out = out.to("vulkan")
    torch.ops.aten._compute_linear_combination.out(x.to("vulkan"), c.to("vulkan"), out=d_out)
    torch.ops.aten._compute_linear_combination.out(x, c, out=out)
    torch.testing.assert_close(d_out.cpu(), out, **tolerances)


def test_linear_combination_shapes(no_fallback):
    x, c = torch.randn(3), torch.randn(4, 3)  # 1-D input: one number per term
    torch.testing.assert_close(torch.ops.aten._compute_linear_combination(x.to("vulkan"), c.to("vulkan")).cpu(),
                               torch.ops.aten._compute_linear_combination(x, c))
    x = torch.randn(5, 3)[::2].t()  # non-contiguous input, 3 terms
    c = torch.randn(3, 2).t()
    out = torch.ones(3, 2).t()  # non-contiguous out
    d_out = out.to("vulkan")
    assert not d_out.is_contiguous()
    torch.ops.aten._compute_linear_combination.out(x.to("vulkan"), c.to("vulkan"), out=d_out)
    torch.ops.aten._compute_linear_combination.out(x, c, out=out)
    torch.testing.assert_close(d_out.cpu(), out)
    with pytest.raises(RuntimeError, match="Empty tensor not supported"):
        torch.ops.aten._compute_linear_combination(torch.empty(0, 2, device="vulkan"), torch.empty(1, 0, device="vulkan"))
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        torch.ops.aten._compute_linear_combination.out(x.to("vulkan"), c.to("vulkan"), out=torch.empty(3, 3, device="vulkan"))
