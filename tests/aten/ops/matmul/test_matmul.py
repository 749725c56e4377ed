import os

import pytest
import torch

from tests.helpers import assert_phase_stamps, kernels_of, pytest_with_tile, require_pipeline
from tests.opinfo import check_op, parametrize

OPS = ["mm", "addmm", ("addmm", "decomposed"), "bmm", "baddbmm", "matmul", "nn.functional.linear", "mv", "addmv",
       "dot", "vdot", "__rmatmul__"]


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


@parametrize(["addbmm"])
def test_addbmm(op, dtype, variant, no_fallback):
    # The CPU rounds each batch's product into a 16-bit result before adding
    # the next; this device (as CUDA) sums every batch in one float32
    # accumulator, so 16-bit results differ by a few of the CPU's roundings.
    check_op(op, dtype, variant, tolerances={torch.float16: (1e-2, 5e-2), torch.bfloat16: (5e-2, 3e-1)})


@parametrize(["addr"])
def test_addr(op, dtype, variant, no_fallback):
    # The CPU rounds beta self, vec1 vec2 and alpha times it to 16 bits one by
    # one; this device rounds once, from float32.
    check_op(op, dtype, variant, tolerances={torch.float16: (5e-3, 5e-3), torch.bfloat16: (3e-2, 3e-2)})


@pytest.mark.parametrize("shape", [(1, 1, 1), (5, 1, 7), (1, 9, 1), (67, 33, 129), (64, 64, 64), (3, 0, 4), (0, 3, 4)])
def test_odd_shapes(shape, no_fallback):
    m, k, n = shape
    a, b = torch.randn(m, k), torch.randn(k, n)
    torch.testing.assert_close((a.to("vulkan") @ b.to("vulkan")).cpu(), a @ b)


def test_transposed_and_strided_operands(no_fallback):
    a, b = torch.randn(40, 70), torch.randn(69, 40)
    da, db = a.to("vulkan"), b.to("vulkan")
    torch.testing.assert_close((da.t() @ db.t()).cpu(), a.t() @ b.t())
    torch.testing.assert_close((da[::2, 1::3] @ db[1::3, ::2]).cpu(), a[::2, 1::3] @ b[1::3, ::2])


def test_batch_broadcasting_through_matmul(no_fallback):
    a, b = torch.randn(2, 3, 5, 6), torch.randn(6, 4)
    torch.testing.assert_close(torch.matmul(a.to("vulkan"), b.to("vulkan")).cpu(), torch.matmul(a, b))


def test_linear_and_matmul_gradients_match_cpu(no_fallback):
    lin = torch.nn.Linear(12, 7)
    x = torch.randn(5, 12)
    grad = torch.randn(5, 7)
    expected = torch.autograd.grad(lin(x), [lin.weight, lin.bias], grad)
    lin_v = torch.nn.Linear(12, 7).to("vulkan")
    lin_v.load_state_dict(lin.state_dict())
    got = torch.autograd.grad(lin_v(x.to("vulkan")), [lin_v.weight, lin_v.bias], grad.to("vulkan"))
    for g, e in zip(got, expected):
        torch.testing.assert_close(g.cpu(), e)


# The portable tier's tiles (gemm_tiled.t64 for these shapes; t128 in
# test_portable_128_tiles below): batches of 130 x 131 (edges past a tile),
# K = 21 (not a multiple of the step), every operand orientation.
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int32, torch.int64, torch.uint8])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_large_tiles(dtype, ta, tb, no_fallback):
    batch, m, k, n = 64, 130, 21, 131
    if dtype.is_floating_point:
        a, b, c = torch.randn(batch, m, k, dtype=dtype), torch.randn(batch, k, n, dtype=dtype), torch.randn(n, dtype=dtype)
    else:
        a, b, c = (torch.randint(0, 5, s, dtype=dtype) for s in ((batch, m, k), (batch, k, n), (n,)))
    da = (a.transpose(1, 2).contiguous().to("vulkan").transpose(1, 2)) if ta else a.to("vulkan")
    db = (b.transpose(1, 2).contiguous().to("vulkan").transpose(1, 2)) if tb else b.to("vulkan")
    alpha, beta = (2, 3) if not dtype.is_floating_point else (0.5, 2.0)
    got = torch.baddbmm(c.to("vulkan"), da, db, alpha=alpha, beta=beta).cpu()
    torch.testing.assert_close(got, torch.baddbmm(c, a, b, alpha=alpha, beta=beta))


def test_portable_product_takes_the_configured_tile(no_fallback):
    # t64 by the tier's own rule (K < 1024), or the configuration forced by
    # TORCHVULKAN_GEMM_TILE (test_portable_128_tiles).
    a, b = torch.randn(256, 64).to("vulkan"), torch.randn(64, 384).to("vulkan")
    tile = os.environ.get("TORCHVULKAN_GEMM_TILE", "t64")
    assert kernels_of(lambda: a @ b) == [f"gemm_tiled.{tile}.f32"]


# The portable tier reads an operand in chunks of 4 values along the dim it
# is contiguous in: one vector load where the host found it aligned with
# extents and strides multiples of 4, else value by value. Both, for each
# orientation, with tile edges inside a chunk row (132 x 136 outputs), for
# dtypes of every width (8-byte types stage 4 of K a step on 128x128
# tiles: half a chunk per invocation).
def _operand(t, transposed, misaligned):
    """`t` on the device, stored transposed or not, 1 element past 16-byte
    alignment or not."""
    stored = t.transpose(-1, -2) if transposed else t
    base = torch.zeros(stored.numel() + 1, dtype=t.dtype, device="vulkan")
    view = base[1:] if misaligned else base[:-1]
    view = view.view(stored.shape)
    view.copy_(stored.to("vulkan"))
    return view.transpose(-1, -2) if transposed else view


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.float16, torch.int8])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_vector_staging(dtype, ta, tb, no_fallback):
    batch, m, k, n = 3, 132, 36, 136
    if dtype.is_floating_point:
        a, b = torch.randn(batch, m, k, dtype=dtype), torch.randn(batch, k, n, dtype=dtype)
    else:
        a, b = torch.randint(-3, 4, (batch, m, k), dtype=dtype), torch.randint(-3, 4, (batch, k, n), dtype=dtype)
    expected = torch.bmm(a.double(), b.double()).to(dtype)
    for misaligned in (False, True):
        got = torch.bmm(_operand(a, ta, misaligned), _operand(b, tb, misaligned)).cpu()
        torch.testing.assert_close(got, expected)


# A float32 out written in vectors (contiguous rows, N a multiple of 8): M
# past a tile's edge, alpha, beta and a row-vector bias, batches; beside it
# the element-by-element epilogue it must agree with (a strided out, a bias
# that is not a row vector, N not a multiple of 8).
def test_vector_store_epilogue(no_fallback):
    batch, m, k, n = 2, 130, 20, 136
    a, b, bias = torch.randn(batch, m, k), torch.randn(batch, k, n), torch.randn(n)
    expected = torch.baddbmm(bias, a, b, alpha=0.5, beta=2.0)
    got = torch.baddbmm(bias.to("vulkan"), a.to("vulkan"), b.to("vulkan"), alpha=0.5, beta=2.0)
    torch.testing.assert_close(got.cpu(), expected)
    column_bias = torch.randn(m, 1)
    torch.testing.assert_close(torch.addmm(column_bias.to("vulkan"), a[0].to("vulkan"), b[0].to("vulkan")).cpu(),
                               torch.addmm(column_bias, a[0], b[0]))
    out = torch.zeros(n, m, device="vulkan").t()
    torch.mm(a[0].to("vulkan"), b[0].to("vulkan"), out=out)
    torch.testing.assert_close(out.cpu(), a[0] @ b[0])
    torch.testing.assert_close((a[0].to("vulkan") @ b[0, :, :132].to("vulkan")).cpu(), a[0] @ b[0, :, :132])


# Split-K's float32 workspace written in vectors (N a multiple of 4) and
# value by value (N = 30), for each out dtype the workspace serves.
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("n", [32, 30])
def test_split_k_workspace_stores(dtype, n, no_fallback):
    x, w = torch.randn(20, 3000).to(dtype), torch.randn(n, 3000).to(dtype)
    tol = {torch.float32: (1e-4, 1e-3), torch.float16: (2e-3, 5e-2), torch.bfloat16: (1e-2, 4e-1)}[dtype]
    got = (x.to("vulkan") @ w.to("vulkan").t()).cpu().double()
    torch.testing.assert_close(got, x.double() @ w.double().t(), rtol=tol[0], atol=tol[1])


# The same checks on the 128x128 tiles (t128w for float32, t128wv where both
# operands are vector-loadable), which the tier takes only for large outputs
# with K >= 1024 (gemm.cpp), and on the 128x64 candidate, taken only when
# forced: forced by TORCHVULKAN_GEMM_TILE in a child
# process (the choice is read once per process).
@pytest.mark.parametrize("tile", ["t128", "t128w", "t128x64", "t128wv"])
def test_portable_128_tiles(tile):
    pytest_with_tile(__file__, tile, "test_large_tiles or test_vector_staging or test_vector_store_epilogue or test_odd_shapes or test_split_k or takes_the_configured")


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_large_tiles_16_bit_with_activations(dtype, no_fallback):
    # 2100 x 2100: 17 x 17 tiles of 128, the last cut at 52.
    x, w, bias = torch.randn(2100, 24), torch.randn(2100, 24), torch.randn(2100)
    x, w, bias = x.to(dtype), w.to(dtype), bias.to(dtype)
    expected = (x.float() @ w.float().t() + bias.float())
    for use_gelu, act in ((False, torch.relu), (True, torch.nn.functional.gelu)):
        got = torch.ops.aten._addmm_activation(bias.to("vulkan"), x.to("vulkan"), w.to("vulkan").t(), use_gelu=use_gelu)
        torch.testing.assert_close(got.cpu().float(), act(expected), rtol=1e-2, atol=2e-2)


# Few output tiles and a long K: the portable tier splits K across
# workgroups into a float32 workspace, then gemm_splitk_reduce applies alpha,
# beta, the bias and the activation.
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_split_k(dtype, no_fallback):
    x, w, bias = torch.randn(20, 3000), torch.randn(30, 3000), torch.randn(30)
    x, w, bias = x.to(dtype), w.to(dtype), bias.to(dtype)
    expected = 0.5 * bias.double() + 2.0 * (x.double() @ w.double().t())
    tol = {torch.float32: (1e-4, 1e-3), torch.float16: (2e-3, 5e-2), torch.bfloat16: (1e-2, 4e-1)}[dtype]
    got = torch.addmm(bias.to("vulkan"), x.to("vulkan"), w.to("vulkan").t(), beta=0.5, alpha=2.0)
    torch.testing.assert_close(got.cpu().double(), expected, rtol=tol[0], atol=tol[1])
    relu = torch.ops.aten._addmm_activation(bias.to("vulkan"), x.to("vulkan"), w.to("vulkan").t())
    torch.testing.assert_close(relu.cpu().double(), (bias.double() + x.double() @ w.double().t()).relu(),
                               rtol=tol[0], atol=tol[1])
    a, b = torch.randn(3, 17, 1000).to(dtype), torch.randn(3, 1000, 9).to(dtype)
    torch.testing.assert_close(torch.bmm(a.to("vulkan"), b.to("vulkan")).cpu().double(), a.double() @ b.double(),
                               rtol=tol[0], atol=tol[1])


# Split-K outputs of at least 262,144 sums take gemm_splitk_reduce.comp's
# sums4 variant (four sums an invocation): 512 x 512 (64 tiles of 64, 4
# splits of K on the portable tier) with alpha, beta, the bias and ReLU,
# into strided outs, and two batches of 256 x 512.
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_split_k_many_sums(dtype, no_fallback):
    tol = {torch.float32: (1e-4, 1e-3), torch.float16: (2e-3, 5e-2), torch.bfloat16: (1e-2, 4e-1)}[dtype]
    x, w, bias = (torch.randn(*s).to(dtype) for s in ((512, 512), (512, 512), (512,)))
    dx, dw, dbias = x.to("vulkan"), w.to("vulkan"), bias.to("vulkan")
    reduce = f"gemm_splitk_reduce.sums4.{ {torch.float32: 'f32', torch.float16: 'f16', torch.bfloat16: 'bf16'}[dtype]}"
    assert reduce in kernels_of(lambda: torch.addmm(dbias, dx, dw.t(), beta=0.5, alpha=2.0))
    got = torch.addmm(dbias, dx, dw.t(), beta=0.5, alpha=2.0)
    expected = 0.5 * bias.double() + 2.0 * (x.double() @ w.double().t())
    torch.testing.assert_close(got.cpu().double(), expected, rtol=tol[0], atol=tol[1])
    relu = torch.ops.aten._addmm_activation(dbias, dx, dw.t())
    torch.testing.assert_close(relu.cpu().double(), (bias.double() + x.double() @ w.double().t()).relu(),
                               rtol=tol[0], atol=tol[1])
    # Into every other column of a wider tensor, and into a transposed one.
    wide = torch.zeros(512, 1024, dtype=dtype, device="vulkan")
    torch.mm(dx, dw, out=wide[:, ::2])
    torch.testing.assert_close(wide[:, ::2].cpu().double(), x.double() @ w.double(), rtol=tol[0], atol=tol[1])
    assert wide[:, 1::2].eq(0).all().item()
    transposed = torch.empty(512, 512, dtype=dtype, device="vulkan").t()
    torch.mm(dx, dw, out=transposed)
    torch.testing.assert_close(transposed.cpu().double(), x.double() @ w.double(), rtol=tol[0], atol=tol[1])
    a, b = torch.randn(2, 256, 512).to(dtype), torch.randn(2, 512, 512).to(dtype)
    da, db = a.to("vulkan"), b.to("vulkan")
    assert reduce in kernels_of(lambda: torch.bmm(da, db))
    torch.testing.assert_close(torch.bmm(da, db).cpu().double(), a.double() @ b.double(), rtol=tol[0], atol=tol[1])


def _check_epilogue(dtype, tol, w_stored_transposed):
    """addmm's alpha, beta and bias and _addmm_activation's two activations
    on a product of 6 rows, x [6, 1000] @ w [1000, 40], w stored as [40,
    1000] or not."""
    x, w, bias = (torch.randn(*s, dtype=dtype) for s in ((6, 1000), (1000, 40), (40,)))
    dx, dbias = x.to("vulkan"), bias.to("vulkan")
    dw = w.t().contiguous().to("vulkan").t() if w_stored_transposed else w.to("vulkan")
    product = x.double() @ w.double()
    got = torch.addmm(dbias, dx, dw, alpha=0.5, beta=2.0).cpu()
    torch.testing.assert_close(got, (2.0 * bias.double() + 0.5 * product).to(dtype), **tol)
    for use_gelu, act in ((False, torch.relu), (True, torch.nn.functional.gelu)):
        got = torch.ops.aten._addmm_activation(dbias, dx, dw, use_gelu=use_gelu).cpu()
        torch.testing.assert_close(got.double(), act(bias.double() + product), **tol)


# gemm_dot.comp (rows of dot products: at most 16 columns, both operands
# contiguous along K), taken only under TORCHVULKAN_GEMM_TILE=dot
# (test_forced_dot runs this in a child process so): split along K through
# the float32 workspace, value by value (the any variant, K not a multiple
# of the vector) and in vectors (vec), a few rows of them (a linear layer on
# a few inputs) as the transposed product, rows cut inside a team's 4 and
# the workgroup's 32 (whole teams idle), K not a multiple of a team's
# stride, batches, alpha, beta, the bias and both activations.
@pytest.mark.skipif(os.environ.get("TORCHVULKAN_GEMM_TILE") != "dot", reason="runs under test_forced_dot")
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_dot_products(dtype, no_fallback):
    tol = dict(rtol=2e-2, atol=1e-1) if dtype != torch.float32 else dict(rtol=1e-4, atol=1e-4)
    name = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16"}[dtype]
    # (batches, M, K, N): split along K, value by value and in vectors;
    # transposed (M <= 16); one split; a column.
    for batches, m, k, n in [(1, 130, 3001, 10), (1, 20, 4096, 12), (2, 5, 700, 33), (3, 7, 300, 16),
                             (1, 9, 5000, 1)]:
        a, w = torch.randn(batches, m, k, dtype=dtype), torch.randn(batches, n, k, dtype=dtype)
        da, dw = a.to("vulkan"), w.to("vulkan")
        form = "vec" if k % (16 // a.element_size()) == 0 else "any"
        assert kernels_of(lambda: torch.bmm(da, dw.mT))[0] == f"gemm_dot.{form}.{name}"
        expected = (a.double() @ w.double().mT).to(dtype)
        torch.testing.assert_close(torch.bmm(da, dw.mT).cpu(), expected, **tol)
    _check_epilogue(dtype, tol, w_stored_transposed=True)


def test_forced_dot():
    pytest_with_tile(__file__, "dot", "test_dot_products or test_odd_shapes or test_split_k or gradients")


def _rows_kernel(dtype, m, k_major, n=0, batches=1):
    """The gemm_rows variant a product of m rows takes: r12 or r12k for at most
    12 rows of a 16-bit dtype unless TORCHVULKAN_GEMM_TILE=rows16, else r16 or
    r16k; r12's narrow form r12b4 where r12 would run fewer than 512
    workgroups of 64 invocations, each 8 columns (n of them), or where
    TORCHVULKAN_GEMM_TILE=rows_b4 forces it (rows_b16 forces r12)."""
    forced = os.environ.get("TORCHVULKAN_GEMM_TILE")
    twelve = m <= 12 and dtype != torch.float32 and forced != "rows16"
    rows = 12 if twelve else 16
    short = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16"}[dtype]
    narrow = twelve and not k_major and (forced == "rows_b4" or (forced != "rows_b16" and
                                                                 batches * -(-n // 512) < 512))
    form = "k" if k_major else "b4" if narrow else ""
    return f"gemm_rows.r{rows}{form}.{short}"


# gemm_rows.comp (at most 16 rows, B contiguous along N in 16-byte vectors):
# one split written as vectors, split along K, one row, A transposed (the
# MNIST benchmark's g2^T @ a), a few columns of a product whose A is
# contiguous along M (taken transposed), batches, and through the
# epilogue: alpha, beta, the bias and both activations.
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_rows_products(dtype, no_fallback):
    tol = dict(rtol=2e-2, atol=1e-1) if dtype != torch.float32 else dict(rtol=1e-4, atol=1e-4)
    # (1, 10, 3000, 64): r12b4 split along K (11 splits of 280, the last
    # block of each 24 rows deep); the last: wide enough (512 workgroups of
    # r12) for r12 by default.
    for batches, m, k, n, ta in [(1, 10, 200, 1024, False), (2, 16, 3000, 48, False), (1, 1, 70, 8, False),
                                 (1, 10, 300, 520, True), (3, 7, 65, 16, True), (1, 10, 3000, 64, False),
                                 (1, 10, 16, 262144, False)]:
        a = torch.randn(batches, *((k, m) if ta else (m, k)), dtype=dtype)
        b = torch.randn(batches, k, n, dtype=dtype)
        da, db = a.to("vulkan"), b.to("vulkan")
        da = da.mT if ta else da
        a = a.mT if ta else a
        assert kernels_of(lambda: torch.bmm(da, db))[0] == _rows_kernel(dtype, m, False, n, batches)
        torch.testing.assert_close(torch.bmm(da, db).cpu(), (a.double() @ b.double()).to(dtype), **tol)
    # out [40, 5] = x @ w with x contiguous along M: out^T = w^T x^T has 5 rows.
    x, w = torch.randn(300, 40, dtype=dtype).t(), torch.randn(300, 8, dtype=dtype)[:, :5]
    dx, dw = x.t().contiguous().to("vulkan").t(), w.to("vulkan")
    assert kernels_of(lambda: dx @ dw)[0] == _rows_kernel(dtype, 5, False, 40)
    torch.testing.assert_close((dx @ dw).cpu(), (x.double() @ w.double()).to(dtype), **tol)
    _check_epilogue(dtype, tol, w_stored_transposed=False)


# gemm_rows.comp's r16k (at most 16 rows, B contiguous along K): directly
# (a linear layer on a few inputs taken transposed is the same product), one
# split and split along K (K a multiple of the vector but not of the
# 64-value blocks), columns past a workgroup's 64, batches, one row, and the
# epilogue's alpha, beta, bias and activations.
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_rows_k_products(dtype, no_fallback):
    tol = dict(rtol=2e-2, atol=1e-1) if dtype != torch.float32 else dict(rtol=1e-4, atol=1e-4)
    # The last two: 78 splits, each sum shared by 4 invocations of
    # gemm_splitk_reduce.comp (gemm.cpp's reduce_lanes), 20 splits apiece;
    # about 1,000 splits, 32 invocations a sum.
    for batches, m, k, n in [(1, 10, 200, 130), (2, 16, 3000, 48), (1, 1, 72, 8), (3, 7, 4096, 5),
                             (1, 12, 1000, 70), (1, 10, 20000, 16), (1, 3, 300000, 5)]:
        a, w = torch.randn(batches, m, k, dtype=dtype), torch.randn(batches, n, k, dtype=dtype)
        da, dw = a.to("vulkan"), w.to("vulkan")
        assert kernels_of(lambda: torch.bmm(da, dw.mT))[0] == _rows_kernel(dtype, m, True)
        # float32 sums of k products of ~N(0, 1) values err by about
        # sqrt(k) ulps of their partial sums' size, whatever the sum's.
        atol = tol["atol"] * max(1.0, (k / 1000) ** 0.5)
        torch.testing.assert_close(torch.bmm(da, dw.mT).cpu(), (a.double() @ w.double().mT).to(dtype),
                                   rtol=tol["rtol"], atol=atol)
    # out [40, 10] = x @ w^T, x [40, K]: taken as out^T = w x^T, 10 rows.
    x, w = torch.randn(40, 800, dtype=dtype), torch.randn(10, 800, dtype=dtype)
    dx, dw = x.to("vulkan"), w.to("vulkan")
    assert kernels_of(lambda: dx @ dw.t())[0] == _rows_kernel(dtype, 10, True)
    torch.testing.assert_close((dx @ dw.t()).cpu(), (x.double() @ w.double().t()).to(dtype), **tol)
    _check_epilogue(dtype, tol, w_stored_transposed=True)


# r16 and r16k for every product of at most 16 rows (TORCHVULKAN_GEMM_TILE=
# rows16, for measuring them against r12 and r12k): both tests above in a
# child process.
def test_forced_sixteen_rows():
    pytest_with_tile(__file__, "rows16", "test_rows_products or test_rows_k_products")


# r12's two forms forced (TORCHVULKAN_GEMM_TILE=rows_b16 / rows_b4: 16 or 4
# bytes of B's rows an invocation; by default the product's width picks) in
# a child process.
@pytest.mark.parametrize("tile", ["rows_b16", "rows_b4"])
def test_forced_rows_forms(tile):
    pytest_with_tile(__file__, tile, "test_rows_products")


# gemm_small_k.comp (at most 16 values of K, B contiguous along N in 16-byte
# vectors; k12 up to 12, k16 above): the MNIST benchmark's g2 @ W2 scaled down (K = 10), K = 1 and
# 16, rows past a workgroup's 32 and columns past its 64 vectors, A
# transposed, batches, and the epilogue: alpha, beta, the bias and both
# activations, written value by value, also into a strided out.
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_small_k_products(dtype, no_fallback):
    tol = dict(rtol=2e-2, atol=5e-2) if dtype != torch.float32 else dict(rtol=1e-4, atol=1e-4)
    suffix = {torch.float32: 'f32', torch.float16: 'f16', torch.bfloat16: 'bf16'}[dtype]

    def kernel(k, m, n, batches=1):
        """k12r8 where forced or where k12 would run fewer than 1024
        workgroups of 64 invocations x 16 bytes of columns x 32 rows (16-bit
        dtypes only)."""
        columns = 64 * 16 // torch.tensor([], dtype=dtype).element_size()
        blocks = batches * -(-n // columns) * -(-m // 32)
        eight = os.environ.get("TORCHVULKAN_GEMM_TILE") == "small_k8" or (dtype != torch.float32 and blocks < 1024)
        return f"gemm_small_k.{('k12r8' if eight else 'k12') if k <= 12 else 'k16'}.{suffix}"

    # The last: wide enough (1,024 workgroups of k12) for k12 by default.
    for batches, m, k, n, ta in [(1, 128, 10, 1024, False), (2, 33, 1, 8, False), (1, 70, 16, 520, True),
                                 (3, 20, 7, 16, False), (1, 128, 10, 131072, False)]:
        a = torch.randn(batches, *((k, m) if ta else (m, k)), dtype=dtype)
        b = torch.randn(batches, k, n, dtype=dtype)
        da, db = a.to("vulkan"), b.to("vulkan")
        da = da.mT if ta else da
        a = a.mT if ta else a
        assert kernels_of(lambda: torch.bmm(da, db)) == [kernel(k, m, n, batches)]
        torch.testing.assert_close(torch.bmm(da, db).cpu(), (a.double() @ b.double()).to(dtype), **tol)
    x, w, bias = torch.randn(40, 12, dtype=dtype), torch.randn(12, 64, dtype=dtype), torch.randn(64, dtype=dtype)
    dx, dw, dbias = x.to("vulkan"), w.to("vulkan"), bias.to("vulkan")
    product = x.double() @ w.double()
    assert kernels_of(lambda: torch.addmm(dbias, dx, dw, alpha=0.5, beta=2.0)) == [kernel(12, 40, 64)]
    got = torch.addmm(dbias, dx, dw, alpha=0.5, beta=2.0).cpu()
    torch.testing.assert_close(got, (2.0 * bias.double() + 0.5 * product).to(dtype), **tol)
    for use_gelu, act in ((False, torch.relu), (True, torch.nn.functional.gelu)):
        got = torch.ops.aten._addmm_activation(dbias, dx, dw, use_gelu=use_gelu).cpu()
        torch.testing.assert_close(got.double(), act(bias.double() + product), **tol)
    out = torch.zeros(40, 128, dtype=dtype, device="vulkan")
    torch.mm(dx, dw, out=out[:, ::2])
    torch.testing.assert_close(out[:, ::2].cpu(), product.to(dtype), **tol)
    assert out[:, 1::2].eq(0).all().item()



# k12r8 for every product k12 serves (TORCHVULKAN_GEMM_TILE=small_k8) in a
# child process.
def test_forced_small_k_eight_rows():
    pytest_with_tile(__file__, "small_k8", "test_small_k_products")

def test_tiled_phase_stamps():
    # qt128 (gemm_tiled_phases: t128wv writing clock stamps for
    # benchmark/coop_phases.py) in a child process, as the tile is forced.
    require_pipeline("gemm_tiled_phases.qt128.f32")
    pytest_with_tile(__file__, "qt128", "tiled_stamps_in_order")


@pytest.mark.skipif(os.environ.get("TORCHVULKAN_GEMM_TILE") != "qt128", reason="runs under test_tiled_phase_stamps")
def test_tiled_stamps_in_order(no_fallback):
    a, b = torch.randn(300, 96), torch.randn(96, 264)
    da, db = a.to("vulkan"), b.to("vulkan")
    assert kernels_of(lambda: da @ db) == ["gemm_tiled_phases.qt128.f32"]
    torch.testing.assert_close((da @ db).cpu(), a @ b, rtol=1e-4, atol=1e-4)
    assert_phase_stamps(3 * 3)  # a 128x128 tile a workgroup
