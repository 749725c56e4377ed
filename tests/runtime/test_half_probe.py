"""float -> float16 on the device rounds like c10::Half, whichever conversion
the half probe (csrc/runtime/half_probe.cpp) chose for this device. Where it
chose the driver's conversion, the probe found it equal to the written-out one
on every rounding boundary, so these tests check both against the CPU."""

import torch

import torchvulkan


def boundary_floats():
    """Every finite half, the floats midway between neighbours (65520 rounds
    to infinity) and the floats next to those midpoints, both signs, and the
    special values."""
    halves = torch.arange(0x7C00, dtype=torch.int32).to(torch.int16).view(torch.float16).float()
    upper = torch.cat([halves[1:], torch.tensor([65536.0])])
    mid = (halves + upper) / 2
    bits = mid.view(torch.int32)
    near = torch.cat([halves, mid, (bits - 1).view(torch.float32), (bits + 1).view(torch.float32)])
    special = torch.tensor([float("inf"), float("nan"), 3.4028234663852886e38, 1e-45, 0.0])
    values = torch.cat([near, special])
    return torch.cat([values, -values])


def test_float_to_half_rounds_like_cpu(no_fallback):
    x = boundary_floats()
    got = x.to("vulkan").half().cpu()
    want = x.half()
    assert torch.equal(got.view(torch.int16), want.view(torch.int16)), torchvulkan._C.native_half(0)


def test_half_arithmetic_rounds_like_cpu(no_fallback):
    # A float16 result rounded in an op's kernel, not only in a copy: products
    # of halves by 1.1 land anywhere between halves, ties included.
    a = boundary_floats().half()
    b = torch.full_like(a, 1.1)
    got, want = (a.to("vulkan") * b.to("vulkan")).cpu(), a * b
    # A NaN's sign after arithmetic is the hardware's (NVIDIA makes every NaN
    # positive, x86 keeps the operand's), as on CUDA.
    assert torch.equal(got.isnan(), want.isnan())
    finite = ~want.isnan()
    assert torch.equal(got[finite].view(torch.int16), want[finite].view(torch.int16))


def test_verdict_is_a_bool():
    assert torchvulkan._C.native_half(0) in (True, False)
