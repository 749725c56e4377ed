"""Convolutions on the vulkan device (im2col columns and matrix products,
csrc/aten/ops/conv/convolution.cpp), in strict mode against the CPU: output
and all three gradients of plain and transposed convolutions over 1-3
spatial dimensions, strides, padding, dilation, groups, output padding,
bias, layouts and dtypes, and a small CNN's training step."""

import copy

import pytest
import torch
import torch.nn.functional as F

from tests.opinfo import check_op, parametrize

MODULES = {1: torch.nn.Conv1d, 2: torch.nn.Conv2d, 3: torch.nn.Conv3d}

# dims, in, out, kernel, stride, padding, dilation, groups, bias
CASES = [
    (2, 3, 4, 3, 1, 0, 1, 1, True),
    (2, 4, 6, 3, 2, 1, 1, 2, True),
    (1, 3, 5, 2, 1, 0, 2, 1, False),
    (3, 2, 4, 2, 1, 1, 1, 1, True),
    (2, 4, 4, 3, 1, 1, 2, 4, False),  # depthwise
    (2, 3, 8, 1, 1, 0, 1, 1, True),   # 1x1: the columns are the input itself
    (2, 3, 4, (3, 2), (2, 1), (1, 0), (1, 2), 1, True),
    (2, 6, 6, 5, 3, 2, 1, 3, True),
    (2, 2, 3, 7, 1, 0, 1, 1, True),   # the kernel covers the whole input
]


def tolerance(dtype):
    return {torch.float16: (2e-2, 2e-2), torch.bfloat16: (8e-2, 8e-2)}.get(dtype, (1e-4, 1e-4))


def compare(conv, x, dtype=torch.float32, channels_last=False):
    conv = conv.to(dtype)
    vk = copy.deepcopy(conv).to("vulkan")
    x = x.to(dtype)
    xv = x.to("vulkan")
    if channels_last:
        xv = xv.contiguous(memory_format=torch.channels_last)
    x.requires_grad_()
    xv.requires_grad_()
    # The reference runs in float32 where the CPU lacks a half convolution.
    ref = copy.deepcopy(conv).float()
    out = ref(x.detach().float().requires_grad_())
    outv = vk(xv)
    assert outv.device.type == "vulkan" and outv.dtype == dtype and outv.shape == out.shape
    grad = torch.randn(out.shape)
    x_ref = x.detach().float().requires_grad_()
    out = ref(x_ref)
    out.backward(grad)
    outv.backward(grad.to(dtype).to("vulkan"))
    rtol, atol = tolerance(dtype)
    torch.testing.assert_close(outv.float().cpu(), out, rtol=rtol, atol=atol)
    torch.testing.assert_close(xv.grad.float().cpu(), x_ref.grad, rtol=rtol, atol=atol)
    for p, pv in zip(ref.parameters(), vk.parameters()):
        torch.testing.assert_close(pv.grad.float().cpu(), p.grad, rtol=rtol, atol=atol)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_matches_cpu(case, no_fallback):
    dims, cin, cout, kernel, stride, padding, dilation, groups, bias = case
    torch.manual_seed(0)
    conv = MODULES[dims](cin, cout, kernel, stride=stride, padding=padding, dilation=dilation, groups=groups,
                         bias=bias)
    compare(conv, torch.randn((2, cin) + (7,) * dims))


# dims, in, out, kernel, stride, padding, output_padding, dilation, groups, bias
TRANSPOSED = [
    (2, 4, 6, 3, 2, 1, 0, 1, 2, True),
    (1, 3, 5, 2, 1, 0, 0, 2, 1, False),
    (2, 3, 2, 3, 2, 0, 1, 1, 1, True),
    (3, 2, 4, 2, (2, 1, 1), (0, 1, 0), 0, 1, 1, True),
    (2, 4, 4, (3, 2), (1, 2), (1, 0), (1, 1), (2, 1), 4, False),
]
TRANSPOSED_MODULES = {1: torch.nn.ConvTranspose1d, 2: torch.nn.ConvTranspose2d, 3: torch.nn.ConvTranspose3d}


@pytest.mark.parametrize("case", TRANSPOSED, ids=str)
def test_transposed_matches_cpu(case, no_fallback):
    dims, cin, cout, kernel, stride, padding, output_padding, dilation, groups, bias = case
    torch.manual_seed(0)
    conv = TRANSPOSED_MODULES[dims](cin, cout, kernel, stride=stride, padding=padding,
                                    output_padding=output_padding, dilation=dilation, groups=groups, bias=bias)
    compare(conv, torch.randn((2, cin) + (5,) * dims))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float64], ids=str)
def test_dtypes(dtype, no_fallback):
    if dtype == torch.float64 and not torch.vulkan.get_device_properties().float64:
        pytest.skip("no float64 on this device")
    torch.manual_seed(0)
    compare(torch.nn.Conv2d(3, 4, 3, padding=1, groups=1), torch.randn(2, 3, 6, 6), dtype)


def test_channels_last_and_strided_input(no_fallback):
    torch.manual_seed(0)
    compare(torch.nn.Conv2d(3, 5, 3, stride=2), torch.randn(2, 3, 9, 8), channels_last=True)
    x = torch.randn(2, 3, 8, 10)[..., ::2]  # non-contiguous
    w = torch.randn(4, 3, 2, 2)
    torch.testing.assert_close(F.conv2d(x.to("vulkan"), w.to("vulkan")).cpu(), F.conv2d(x, w), rtol=1e-4, atol=1e-4)


def test_padding_modes_and_unbatched(no_fallback):
    torch.manual_seed(0)
    x, w = torch.randn(3, 6, 6), torch.randn(4, 3, 2, 3)  # an unbatched input
    for padding in ("same", "valid"):
        torch.testing.assert_close(F.conv2d(x.to("vulkan"), w.to("vulkan"), padding=padding).cpu(),
                                   F.conv2d(x, w, padding=padding), rtol=1e-4, atol=1e-4)


def test_empty_batch(no_fallback):
    out = F.conv2d(torch.randn(0, 3, 5, 5, device="vulkan"), torch.randn(4, 3, 3, 3, device="vulkan"))
    assert out.shape == (0, 4, 3, 3)


def train_cnn(device):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3, padding=1), torch.nn.ReLU(),
                                torch.nn.Conv2d(4, 8, 3, stride=2), torch.nn.ReLU(), torch.nn.Flatten(),
                                torch.nn.Linear(8 * 3 * 3, 3)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = torch.randn(16, 1, 8, 8), torch.randint(0, 3, (16,))
    losses = []
    for _ in range(10):
        opt.zero_grad()
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, [p.detach().cpu() for p in model.parameters()]


def test_small_cnn_trains_as_on_cpu(no_fallback):
    losses, params = train_cnn("vulkan")
    cpu_losses, cpu_params = train_cnn("cpu")
    assert losses[-1] < 0.8 * losses[0]
    torch.testing.assert_close(losses, cpu_losses, rtol=1e-4, atol=1e-4)
    for p, c in zip(params, cpu_params):
        torch.testing.assert_close(p, c, rtol=1e-3, atol=1e-4)


@parametrize(["nn.functional.conv1d", "nn.functional.conv2d", "nn.functional.conv3d",
              "nn.functional.conv_transpose1d", "nn.functional.conv_transpose2d",
              "nn.functional.conv_transpose3d"], variants=["functional"])
def test_opinfo(op, dtype, variant, no_fallback):
    # 16-bit products accumulate in float32 here, as on CUDA, where the CPU
    # rounds its partial sums: compared with the CPU's float32 result.
    check_op(op, dtype, variant, tolerances={torch.float16: (1e-2, 1e-2), torch.bfloat16: (5e-2, 5e-2)},
             upcast_16_bit=True)
