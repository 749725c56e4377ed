"""The tensor-core tier (shaders/matmul/gemm_coop.comp, and gemm_coop2.comp's
configurations forced in a child process) against the CPU.

It runs only where the build has the kernel and the device reports 16x16x16
cooperative matrices of the dtype (an NVIDIA GPU with a recent glslc; not
lavapipe; bfloat16 also needs GL_EXT_bfloat16 in the compiler), and checks
there that float16 and bfloat16 products take the tier (or, for a few rows,
shaders/matmul/gemm_rows.comp) and match a float32 product of the same
values: every load path (16-byte vectors and element by element), operand
orientations, tile edges, batches, bias, alpha/beta and the fused
activations.
"""

import os

import pytest
import torch

import torchvulkan
from tests.helpers import assert_phase_stamps, kernels_of, pytest_with_tile, require_pipeline

_SHORT = {torch.float16: "f16", torch.bfloat16: "bf16"}


def _has_tier(dtype):
    if not torchvulkan.is_available():
        return False
    built = f"gemm_coop.s128_nn.{_SHORT[dtype]}" in torchvulkan._C.kernel_names()
    shapes = torchvulkan.get_device_properties(0).cooperative_matrix_shapes
    return built and any(s["a_type"] == str(dtype)[6:] and (s["m"], s["n"], s["k"]) == (16, 16, 16)
                         for s in shapes)


@pytest.fixture(params=[torch.float16, torch.bfloat16], ids=["f16", "bf16"])
def dtype(request):
    if not _has_tier(request.param):
        pytest.skip(f"no {request.param} cooperative-matrix GEMM tier on this build/device")
    return request.param


def _ref(a, b):
    return (a.float() @ b.float())


def _check(got, expected, k):
    # A float16 (bfloat16) output of a float32 sum of k products of values
    # ~N(0, 1): 11 (8) significant bits.
    tol = 2e-3 if got.dtype == torch.float16 else 1.6e-2
    torch.testing.assert_close(got.cpu().float(), expected, rtol=tol, atol=tol * k ** 0.5)


def _launches(fn):
    """fn's result and its product launches per tier."""
    before = torchvulkan.matmul_tier_counts()
    result = fn()
    after = torchvulkan.matmul_tier_counts()
    return result, {tier: n - before.get(tier, 0) for tier, n in after.items() if n != before.get(tier, 0)}


def _check_orientation(m, k, n, ta, tb, dtype):
    """One product on the tier, A and B stored transposed or not."""
    a = torch.randn(k, m) if ta else torch.randn(m, k)
    b = torch.randn(n, k) if tb else torch.randn(k, n)
    a, b = a.to(dtype), b.to(dtype)
    a_, b_ = (a.t() if ta else a), (b.t() if tb else b)
    da, db = a.to("vulkan"), b.to("vulkan")
    got, launches = _launches(lambda: (da.t() if ta else da) @ (db.t() if tb else db))
    # gemm_rows.comp takes some products with at most 16 rows (or columns,
    # transposed): gemm.cpp's thin_kernel.
    assert launches == {"coopmat": 1} or (min(m, n) <= 16 and launches in ({"rows": 1}, {"rows_k": 1}))
    _check(got, _ref(a_, b_), k)


# Vector-loadable ones with 1 to 5 steps of K (32) and more, for the two-step
# loops of the v and d tiles: (256, 32, 384), (256, 64, 384), (256, 96, 136),
# (128, 128, 128), (200, 136, 72), (64, 4096, 64).
@pytest.mark.parametrize("m,k,n", [(128, 128, 128), (256, 64, 384), (1, 8, 1), (37, 19, 53), (200, 136, 72),
                                   (129, 257, 130), (64, 4096, 64), (8, 24, 16), (5, 0, 7), (256, 32, 384),
                                   (256, 96, 136)])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_mm_every_orientation(m, k, n, ta, tb, dtype, no_fallback):
    _check_orientation(m, k, n, ta, tb, dtype)


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_wide_tiles_every_orientation(ta, tb, dtype, no_fallback):
    # Enough 128x256 tiles (16 x 17) for the wide variants, with edges in M and N.
    _check_orientation(2000, 40, 4100, ta, tb, dtype)


def test_strided_and_offset_operands(dtype, no_fallback):
    a, b = torch.randn(90, 140).to(dtype), torch.randn(141, 70).to(dtype)
    da, db = a.to("vulkan"), b.to("vulkan")
    _check(da[::2, 1::3] @ db[1::3, ::2], _ref(a[::2, 1::3], b[1::3, ::2]), 47)
    _check(da[3:, 5:] @ db[6:, 1:], _ref(a[3:, 5:], b[6:, 1:]), 135)


def test_bmm_and_baddbmm(dtype, no_fallback):
    a, b, c = (torch.randn(shape).to(dtype) for shape in [(3, 70, 40), (3, 40, 90), (3, 70, 90)])
    _check(torch.bmm(a.to("vulkan"), b.to("vulkan")), _ref(a, b), 40)
    got = torch.baddbmm(c.to("vulkan"), a.to("vulkan"), b.to("vulkan"), beta=0.5, alpha=2.0)
    _check(got, 0.5 * c.float() + 2.0 * _ref(a, b), 40)


def test_addmm_bias_and_activations(dtype, no_fallback):
    x, w, bias = torch.randn(33, 64).to(dtype), torch.randn(48, 64).to(dtype), torch.randn(48).to(dtype)
    expected = _ref(x, w.t()) + bias.float()
    lin = torch.nn.functional.linear(x.to("vulkan"), w.to("vulkan"), bias.to("vulkan"))
    _check(lin, expected, 64)
    relu = torch.ops.aten._addmm_activation(bias.to("vulkan"), x.to("vulkan"), w.to("vulkan").t())
    _check(relu, expected.relu(), 64)
    gelu = torch.ops.aten._addmm_activation(bias.to("vulkan"), x.to("vulkan"), w.to("vulkan").t(), use_gelu=True)
    _check(gelu, torch.nn.functional.gelu(expected), 64)


@pytest.mark.parametrize("beta", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("n", [88, 90])
def test_vector_stores_with_row_bias(beta, n, dtype, no_fallback):
    # A contiguous output whose rows are a multiple of 8 (88 = 80 + 8) is
    # written back through shared memory in 16-byte chunks, the bias added as
    # a matrix of copies of its row, tile edges cut chunk by chunk (70 rows =
    # 64 + 6); 90 columns take the element path.
    x, w, bias = torch.randn(70, 32).to(dtype), torch.randn(32, n).to(dtype), torch.randn(n).to(dtype)
    got = torch.addmm(bias.to("vulkan"), x.to("vulkan"), w.to("vulkan"), beta=beta, alpha=2.0)
    _check(got, beta * bias.float() + 2.0 * _ref(x, w), 32)


def test_linear_gradients(dtype, no_fallback):
    lin = torch.nn.Linear(96, 40).to(dtype)
    x, grad = torch.randn(24, 96).to(dtype), torch.randn(24, 40).to(dtype)
    ref = torch.nn.Linear(96, 40)
    ref.load_state_dict({k: v.float() for k, v in lin.state_dict().items()})
    expected = torch.autograd.grad(ref(x.float()), [ref.weight, ref.bias], grad.float())
    lin_v = lin.to("vulkan")
    got = torch.autograd.grad(lin_v(x.to("vulkan")), [lin_v.weight, lin_v.bias], grad.to("vulkan"))
    for g, e in zip(got, expected):
        _check(g, e, 24)


def test_aligned_product_takes_the_configured_kernel(dtype, no_fallback):
    # The tier's own choice (v128: both operands vector-loadable), or the
    # configuration forced by TORCHVULKAN_GEMM_TILE (test_forced_tiles), for
    # a product every one takes: operands in rows of 8-element-aligned
    # vectors, nothing but alpha.
    a, b = torch.randn(256, 64).to(dtype).to("vulkan"), torch.randn(64, 384).to(dtype).to("vulkan")
    tile = os.environ.get("TORCHVULKAN_GEMM_TILE", "v128")
    assert kernels_of(lambda: a @ b) == [f"{_kernel(tile)}.{tile}_nn.{_SHORT[dtype]}"]


def test_few_rows_take_u128(dtype, no_fallback):
    # At most 64 rows (a convolution's weight @ columns): the 64-row tiles,
    # unless a configuration is forced.
    if os.environ.get("TORCHVULKAN_GEMM_TILE"):
        pytest.skip("a tile is forced")
    a, b = torch.randn(64, 72).to(dtype), torch.randn(72, 136).to(dtype)
    da, db = a.to("vulkan"), b.to("vulkan")
    assert kernels_of(lambda: da @ db) == [f"gemm_coop.u128_nn.{_SHORT[dtype]}"]
    _check((da @ db).cpu(), _ref(a, b), 72)


def _kernel(tile):
    """The kernel a configuration belongs to (variants.toml)."""
    return "gemm_coop2" if tile[0] == "c" else "gemm_coop"


def _require_pipeline(name):
    """Skips unless this device has the float16 tier and can make kernel `name`."""
    if not _has_tier(torch.float16):
        pytest.skip("no float16 cooperative-matrix GEMM tier on this build/device")
    require_pipeline(name)


@pytest.mark.parametrize("tile", ["s128", "s256", "v256", "u128", "c128", "c256"])
def test_forced_tiles(tile):
    # Every check above with one configuration forced in a child process
    # (the choice is read once per process): the s tiles on vector-loadable
    # operands too (the tier picks v there), v256 and u128 (64 x 128, picked
    # by itself only for at most 64 rows) on small products, and
    # gemm_coop2.comp (VK_NV_cooperative_matrix2), never picked by itself
    # (slower than gemm_coop.comp on the H200, gemm.cpp). Products a
    # configuration does not take stay on the tier's own choice.
    _require_pipeline(f"{_kernel(tile)}.{tile}_nn.f16")
    pytest_with_tile(__file__, tile, "not test_forced and not test_phase_stamps")


# gemm_coop_thin.comp (n16: at most 16 columns, both operands contiguous
# along K; test_forced_thin runs this in a child process with n16 forced,
# which also takes it for short K and few rows): split along K into several
# steps of 64 and one, rows cut inside the 128-row tile and inside a
# subgroup's 16, K not a multiple of the step, one column, batches, and the
# epilogue the split sum applies (alpha, beta, the bias, both activations)
# through a linear layer and its gradients.
def test_thin_products(dtype, no_fallback):
    if os.environ.get("TORCHVULKAN_GEMM_TILE") != "n16":
        pytest.skip("runs under test_forced_thin")
    for batches, m, k, n in [(1, 128, 8192, 10), (1, 130, 3000, 16), (2, 40, 520, 1), (3, 7, 64, 12)]:
        a, w = torch.randn(batches, m, k).to(dtype), torch.randn(batches, n, k).to(dtype)
        da, dw = a.to("vulkan"), w.to("vulkan")
        assert kernels_of(lambda: torch.bmm(da, dw.mT))[0] == f"gemm_coop_thin.n16.{_SHORT[dtype]}"
        _check(torch.bmm(da, dw.mT), _ref(a, w.mT), k)
    x, w, bias = torch.randn(33, 1024).to(dtype), torch.randn(10, 1024).to(dtype), torch.randn(10).to(dtype)
    dx, dw, dbias = x.to("vulkan"), w.to("vulkan"), bias.to("vulkan")
    expected = _ref(x, w.t()) + bias.float()
    _check(torch.addmm(dbias, dx, dw.t(), alpha=0.5, beta=2.0), 0.5 * _ref(x, w.t()) + 2 * bias.float(), 1024)
    _check(torch.ops.aten._addmm_activation(dbias, dx, dw.t()), expected.relu(), 1024)
    _check(torch.ops.aten._addmm_activation(dbias, dx, dw.t(), use_gelu=True),
           torch.nn.functional.gelu(expected), 1024)
    dx.requires_grad_(True)
    torch.nn.functional.linear(dx, dw, dbias).sum().backward()
    _check(dx.grad, torch.ones(33, 10) @ w.float(), 10)


def test_long_thin_product_takes_n16(dtype, no_fallback):
    # The tier's own choice for at most 16 columns of more than 16 rows and K
    # of at least 4096 (the MNIST benchmark's a @ W2^T, scaled down); a
    # forced tile keeps it out.
    if os.environ.get("TORCHVULKAN_GEMM_TILE"):
        pytest.skip("a tile is forced")
    a, w = torch.randn(128, 8192).to(dtype), torch.randn(10, 8192).to(dtype)
    da, dw = a.to("vulkan"), w.to("vulkan")
    assert kernels_of(lambda: da @ dw.t())[0] == f"gemm_coop_thin.n16.{_SHORT[dtype]}"
    _check(da @ dw.t(), _ref(a, w.t()), 8192)


def test_forced_thin():
    _require_pipeline("gemm_coop_thin.n16.f16")
    pytest_with_tile(__file__, "n16", "test_thin_products")


def test_phase_stamps():
    # q128 (gemm_coop_phases: v128 writing clock stamps for
    # benchmark/coop_phases.py) in a child process, as the tile is forced.
    _require_pipeline("gemm_coop_phases.q128_nn.f16")
    pytest_with_tile(__file__, "q128", "stamps_in_order")


def test_stamps_in_order(no_fallback):
    if os.environ.get("TORCHVULKAN_GEMM_TILE") != "q128":
        pytest.skip("runs under test_phase_stamps")
    a, b = torch.randn(300, 96).half().to("vulkan"), torch.randn(96, 264).half().to("vulkan")
    _check(a @ b, _ref(a.cpu(), b.cpu()), 96)
    assert_phase_stamps(3 * 3)  # a 128x128 tile a workgroup
