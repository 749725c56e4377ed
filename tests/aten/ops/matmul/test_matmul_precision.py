"""torch.set_float32_matmul_precision for float32 products
(csrc/aten/ops/matmul/gemm.cpp, bf16_route): "medium" multiplies the operands
rounded to bfloat16, "high" each operand as hi + lo in bfloat16 (hi*hi +
hi*lo + lo*hi), both summed and written in float32, where bfloat16 products
have the tensor-core tier; elsewhere every mode computes in float32.

TORCHVULKAN_FP32_MATMUL_VIA_BF16=1 takes the bfloat16 route on any device, so
a child process checks it here on the portable tier; on a GPU with the
bfloat16 tier the same checks run in-process.
"""

import os
import subprocess
import sys

import pytest
import torch

import torchvulkan


def _bf16_tier():
    names = torchvulkan._C.kernel_names()
    shapes = torchvulkan.get_device_properties(0).cooperative_matrix_shapes
    return "gemm_coop.s128_nn.bf16" in names and any(s["a_type"] == "bfloat16" for s in shapes)


def _split(t):
    hi = t.bfloat16().double()
    return hi, (t.double() - hi).float().bfloat16().double()


def check_modes():
    """Raises AssertionError unless each mode computes what it promises.
    Products are compared in float64 with what the mode's arithmetic gives."""
    torch.manual_seed(0)
    a, b, bias = torch.randn(70, 96), torch.randn(96, 80), torch.randn(80)
    ba, bb = torch.randn(3, 33, 40), torch.randn(3, 40, 20)
    va, vb, vbias, vba, vbb = (t.to("vulkan") for t in (a, b, bias, ba, bb))
    exact = a.double() @ b.double()
    (a_hi, a_lo), (b_hi, b_lo) = _split(a), _split(b)
    try:
        torch.set_float32_matmul_precision("medium")
        got = (va @ vb).cpu().double()
        torch.testing.assert_close(got, a_hi @ b_hi, rtol=1e-5, atol=1e-4)
        assert (got - exact).abs().max() > 1e-3  # bfloat16 operands, not float32
        fused = torch.ops.aten._addmm_activation(vbias, va, vb, beta=0.5, alpha=2.0).cpu().double()
        torch.testing.assert_close(fused, (2.0 * (a_hi @ b_hi) + 0.5 * bias.double()).relu(),
                                   rtol=1e-5, atol=2e-4)

        torch.set_float32_matmul_precision("high")
        got = (va @ vb).cpu().double()
        three = a_hi @ b_hi + a_hi @ b_lo + a_lo @ b_hi
        torch.testing.assert_close(got, three, rtol=1e-5, atol=1e-4)
        assert (got - exact).abs().max() < 1e-2 * (a_hi @ b_hi - exact).abs().max()
        (ba_hi, ba_lo), (bb_hi, bb_lo) = _split(ba), _split(bb)
        torch.testing.assert_close(torch.bmm(vba, vbb).cpu().double(),
                                   ba_hi @ bb_hi + ba_hi @ bb_lo + ba_lo @ bb_hi, rtol=1e-5, atol=1e-4)
        # Transposed operands, read in place by the product, split as they are.
        at, bt = torch.randn(96, 70), torch.randn(80, 96)
        (at_hi, at_lo), (bt_hi, bt_lo) = _split(at), _split(bt)
        got = (at.to("vulkan").t() @ bt.to("vulkan").t()).cpu().double()
        torch.testing.assert_close(got, at_hi.t() @ bt_hi.t() + at_hi.t() @ bt_lo.t() + at_lo.t() @ bt_hi.t(),
                                   rtol=1e-5, atol=1e-4)
        assert va.new_empty(5, 0).mm(vb.new_empty(0, 4)).abs().sum().item() == 0  # K = 0
    finally:
        torch.set_float32_matmul_precision("highest")
    got = (va @ vb).cpu().double()
    torch.testing.assert_close(got, exact, rtol=1e-5, atol=1e-4)
    assert (got - exact).abs().max() < 1e-2 * (a_hi @ b_hi - exact).abs().max()


def test_bf16_route_on_any_tier_when_asked(no_fallback):
    env = dict(os.environ, TORCHVULKAN_FP32_MATMUL_VIA_BF16="1")
    code = "import sys; sys.path.insert(0, %r); import test_matmul_precision as t; t.check_modes()" % (
        os.path.dirname(__file__))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]


@pytest.mark.skipif(not torchvulkan.is_available() or not _bf16_tier(), reason="no bfloat16 tensor-core tier")
def test_bf16_route_on_tensor_cores(no_fallback):
    before = torchvulkan.matmul_tier_counts().get("coopmat", 0)
    check_modes()
    assert torchvulkan.matmul_tier_counts().get("coopmat", 0) > before


@pytest.mark.skipif(not torchvulkan.is_available() or _bf16_tier(), reason="the device has the bfloat16 tier")
def test_every_mode_computes_in_float32_without_the_tier(no_fallback):
    torch.manual_seed(0)
    a, b = torch.randn(70, 96), torch.randn(96, 80)
    exact = a.double() @ b.double()
    try:
        for mode in ("high", "medium"):
            torch.set_float32_matmul_precision(mode)
            got = (a.to("vulkan") @ b.to("vulkan")).cpu().double()
            torch.testing.assert_close(got, exact, rtol=1e-5, atol=1e-4)
    finally:
        torch.set_float32_matmul_precision("highest")
