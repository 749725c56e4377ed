"""Interpolation on the vulkan device (csrc/aten/ops/upsample/upsample.cpp),
in strict mode against the CPU: F.interpolate's nearest, nearest-exact,
linear, bilinear, bicubic and trilinear modes, and antialiased bilinear and
bicubic, values and gradients, up and down, by size and by scale factor,
with and without align_corners, over layouts and dtypes."""

import pytest
import torch
import torch.nn.functional as F

from tests.opinfo import check_op, parametrize

SHAPES = {"linear": (2, 3, 9), "bilinear": (2, 3, 5, 7), "bicubic": (2, 3, 5, 7), "trilinear": (1, 2, 3, 4, 5),
          "nearest": (2, 3, 5, 7), "nearest-exact": (1, 2, 3, 4, 5)}
# Larger, smaller, a factor of two, a fractional factor (the CPU keeps the
# factor for the positions), and a factor ten down (wide backward ranges).
RESIZES = [("size", +3), ("size", -2), ("scale_factor", 2.0), ("scale_factor", 1.7), ("scale_factor", 0.1)]


def tolerance(dtype):
    return {torch.float16: (1e-2, 1e-2), torch.bfloat16: (5e-2, 5e-2)}.get(dtype, (1e-5, 1e-5))


def interpolate_both(x, channels_last=False, **kwargs):
    """F.interpolate of x on the CPU and on the vulkan device, forward and
    backward; compares both."""
    xv = x.detach().to("vulkan")
    if channels_last:
        xv = xv.contiguous(memory_format=torch.channels_last if x.dim() == 4 else torch.channels_last_3d)
    floating = x.dtype.is_floating_point
    x, xv = x.detach().clone().requires_grad_(floating), xv.requires_grad_(floating)
    out, outv = F.interpolate(x, **kwargs), F.interpolate(xv, **kwargs)
    assert outv.device.type == "vulkan" and outv.shape == out.shape
    rtol, atol = tolerance(x.dtype)
    torch.testing.assert_close(outv.cpu(), out, rtol=rtol, atol=atol)
    if floating:
        grad = torch.randn(out.shape).to(x.dtype)
        out.backward(grad)
        outv.backward(grad.to("vulkan"))
        torch.testing.assert_close(xv.grad.cpu(), x.grad, rtol=rtol, atol=atol)


def resize(shape, how, amount):
    if how == "size":
        return {"size": tuple(max(1, s + amount) for s in shape[2:])}
    return {"scale_factor": amount}


@pytest.mark.parametrize("mode", list(SHAPES))
@pytest.mark.parametrize("how,amount", RESIZES, ids=str)
@pytest.mark.parametrize("align_corners", [False, True], ids=["", "align_corners"])
def test_matches_cpu(mode, how, amount, align_corners, no_fallback):
    if align_corners and "nearest" in mode:
        pytest.skip("align_corners applies to the interpolating modes only")
    torch.manual_seed(0)
    shape = SHAPES[mode]
    if amount == 0.1:  # enough input for a factor ten down
        shape = shape[:2] + tuple(s * 4 for s in shape[2:])
    extra = {"align_corners": align_corners} if "nearest" not in mode else {}
    interpolate_both(torch.randn(shape), mode=mode, **resize(shape, how, amount), **extra)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("how,amount", RESIZES + [("size", -5)], ids=str)
@pytest.mark.parametrize("align_corners", [False, True], ids=["", "align_corners"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_antialias(mode, how, amount, align_corners, dtype, no_fallback):
    torch.manual_seed(0)
    shape = (2, 3, 9, 11) if amount != 0.1 else (1, 2, 30, 40)
    interpolate_both(torch.randn(shape, dtype=dtype), mode=mode, antialias=True, align_corners=align_corners,
                     **resize(shape, how, amount))


def test_factor_kept_for_positions(no_fallback):
    # recompute_scale_factor=False hands the kernel 1 / 1.3, not in / out.
    torch.manual_seed(0)
    for mode in ["nearest", "bilinear", "bicubic"]:
        interpolate_both(torch.randn(1, 2, 7, 6), mode=mode, scale_factor=1.3, recompute_scale_factor=False)
        interpolate_both(torch.randn(1, 2, 7, 6), mode=mode, scale_factor=1.3, recompute_scale_factor=True)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float64], ids=str)
@pytest.mark.parametrize("mode", ["nearest", "bilinear", "bicubic"])
def test_dtypes(dtype, mode, no_fallback):
    if dtype == torch.float64 and not torch.vulkan.get_device_properties().float64:
        pytest.skip("no float64 on this device")
    torch.manual_seed(0)
    interpolate_both(torch.randn(2, 3, 5, 6).to(dtype), mode=mode, size=(8, 4))


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int32, torch.int64], ids=str)
def test_nearest_copies_integers(dtype, no_fallback):
    x = torch.randint(0, 200, (2, 3, 5, 6)).to(dtype)
    out = F.interpolate(x.to("vulkan"), scale_factor=1.5, mode="nearest")
    if dtype == torch.uint8:
        torch.testing.assert_close(out.cpu(), F.interpolate(x, scale_factor=1.5, mode="nearest"))
    # The CPU has no integer kernel but uint8's: the float one says what to expect.
    torch.testing.assert_close(out.cpu(), F.interpolate(x.double(), scale_factor=1.5, mode="nearest").to(dtype))


def test_integer_interpolation_refused(no_fallback):
    with pytest.raises(NotImplementedError, match="not implemented for 'Byte'"):
        F.interpolate(torch.ones(1, 1, 4, 4, dtype=torch.uint8, device="vulkan"), size=(6, 6), mode="bilinear")


@pytest.mark.parametrize("mode", ["nearest", "bilinear", "bicubic", "trilinear"])
def test_channels_last(mode, no_fallback):
    torch.manual_seed(0)
    shape = (2, 3, 4, 5, 6) if mode == "trilinear" else (2, 3, 5, 6)
    interpolate_both(torch.randn(shape), channels_last=True, mode=mode, scale_factor=1.5)


def test_bad_sizes(no_fallback):
    x = torch.ones(1, 1, 4, 4, device="vulkan")
    with pytest.raises(RuntimeError, match="should be greater than 0"):
        torch.ops.aten.upsample_bilinear2d(x, [0, 4], False)
    with pytest.raises(RuntimeError, match="output_size"):
        torch.ops.aten.upsample_nearest2d(x, [4], None, None)
    with pytest.raises(RuntimeError, match="Non-empty"):
        F.interpolate(torch.ones(1, 0, 4, 4, device="vulkan"), size=(8, 8), mode="bicubic")


NEAREST = {"nearest", "nearest-exact"}


@parametrize([("nn.functional.interpolate", mode) for mode in
              ["nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear"]] +
             ["_upsample_bilinear2d_aa"] +
             ["nn.functional.upsample_nearest", "nn.functional.upsample_bilinear"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    if dtype == torch.uint8 and op.variant_test_name not in NEAREST and op.name != "nn.functional.upsample_nearest":
        pytest.skip("uint8 interpolation is refused (test_integer_interpolation_refused)")
    check_op(op, dtype, variant, tolerances={torch.float16: (1e-2, 1e-2), torch.bfloat16: (5e-2, 5e-2)})
