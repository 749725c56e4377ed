"""The inference fast paths of nn.MultiheadAttention and
nn.TransformerEncoderLayer (csrc/aten/ops/attention/transformer.cpp), taken in
eval mode under no_grad, in strict mode against the CPU's same fast path:
self- and cross-attention, key padding and attention masks, rows masked
whole (NaN, as the CPU), the attention weights per head or averaged, post- and pre-norm layers
with ReLU and GELU, and _masked_softmax's mask types and its backward."""

import pytest
import torch

from tests.helpers import assert_raises_as_cpu

TOL = {"rtol": 1e-4, "atol": 1e-5}


@pytest.mark.parametrize("need_weights,average", [(False, True), (True, True), (True, False)])
@pytest.mark.parametrize("masks", ["none", "padding", "attn", "both"])
def test_multihead_attention_fast_path(need_weights, average, masks, no_fallback):
    torch.manual_seed(0)
    mha = torch.nn.MultiheadAttention(16, 4, batch_first=True).eval()
    x = torch.randn(3, 5, 16)
    padding = torch.tensor([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
    attn = torch.ones(5, 5, dtype=torch.bool).triu(1)
    kwargs = {"need_weights": need_weights, "average_attn_weights": average}
    if masks in ("padding", "both"):
        kwargs["key_padding_mask"] = padding
    if masks in ("attn", "both"):
        kwargs["attn_mask"] = attn
    with torch.no_grad():
        out, w = mha(x, x, x, **kwargs)
        mv = mha.to("vulkan")
        vk_kwargs = {k: v.to("vulkan") if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()}
        xv = x.to("vulkan")
        outv, wv = mv(xv, xv, xv, **vk_kwargs)
    torch.testing.assert_close(outv.cpu(), out, **TOL)
    assert (w is None) == (wv is None)
    if w is not None:
        torch.testing.assert_close(wv.cpu(), w, **TOL)


def test_cross_attention_and_the_op_itself(no_fallback):
    torch.manual_seed(1)
    E, H = 8, 2
    q, k, v = torch.randn(2, 4, E), torch.randn(2, 4, E), torch.randn(2, 4, E)
    w, b = torch.randn(3 * E, E), torch.randn(3 * E)
    pw, pb = torch.randn(E, E), torch.randn(E)
    mask = torch.zeros(2, 4, dtype=torch.bool)
    mask[1] = True  # the second batch's keys all masked: NaN there, as on the CPU
    args = (E, H, w, b, pw, pb, mask, True, False, 1)
    out, weights = torch._native_multi_head_attention(q, k, v, *args)
    dev = lambda t: t.to("vulkan") if isinstance(t, torch.Tensor) else t  # noqa: E731
    outv, weightsv = torch._native_multi_head_attention(dev(q), dev(k), dev(v), *map(dev, args))
    torch.testing.assert_close(outv.cpu(), out, equal_nan=True, **TOL)
    torch.testing.assert_close(weightsv.cpu(), weights, equal_nan=True, **TOL)
    assert weightsv[1].isnan().all() and not weightsv[0].isnan().any()
    with pytest.raises(RuntimeError, match="embed_dim"):
        torch._native_multi_head_attention(dev(q), dev(k), dev(v), E + 1, H, *map(dev, args[2:]))


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
@pytest.mark.parametrize("padding", [False, True])
def test_encoder_layer_fast_path(norm_first, activation, padding, no_fallback):
    torch.manual_seed(2)
    layer = torch.nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0, activation=activation,
                                             batch_first=True, norm_first=norm_first).eval()
    x = torch.randn(2, 6, 16)
    mask = torch.tensor([[False] * 6, [False] * 4 + [True] * 2]) if padding else None
    with torch.no_grad():
        out = layer(x, src_key_padding_mask=mask)
        lv = layer.to("vulkan")
        outv = lv(x.to("vulkan"), src_key_padding_mask=None if mask is None else mask.to("vulkan"))
    torch.testing.assert_close(outv.cpu(), out, **TOL)


@pytest.mark.parametrize("mask_type", [0, 1, 2])
def test_masked_softmax_types(mask_type, no_fallback):
    torch.manual_seed(3)
    x = torch.randn(2, 3, 4, 4)
    mask = {0: torch.rand(4, 4) > 0.6, 1: torch.rand(2, 4) > 0.6, 2: torch.rand(2, 3, 4, 4) > 0.6}[mask_type]
    mask[..., 0] = True if mask_type != 0 else mask[..., 0]
    expected = torch._masked_softmax(x, mask, 3, mask_type)
    actual = torch._masked_softmax(x.to("vulkan"), mask.to("vulkan"), 3, mask_type)
    torch.testing.assert_close(actual.cpu(), expected, equal_nan=True, **TOL)
    with pytest.raises(RuntimeError, match="boolean"):
        torch._masked_softmax(x.to("vulkan"), mask.float().to("vulkan"), 3, mask_type)


@pytest.mark.parametrize("dim", [3, 1, -1, None])
def test_masked_softmax_backward(dim, no_fallback):
    torch.manual_seed(5)
    x, grad = torch.randn(2, 3, 4, 5), torch.randn(2, 3, 4, 5)
    mask = torch.rand(2, 3, 4, 5) > 0.6
    mask[0, 0, 0] = True  # rows masked whole (along dims 3 and 1)
    mask[1, :, 2, 3] = True
    x.requires_grad_()
    xv = x.detach().to("vulkan").requires_grad_()
    y = torch._masked_softmax(x, mask, dim, 2)
    yv = torch._masked_softmax(xv, mask.to("vulkan"), dim, 2)
    y.backward(grad)
    yv.backward(grad.to("vulkan"))
    torch.testing.assert_close(xv.grad.cpu(), x.grad, equal_nan=True, **TOL)
    # Non-finite values at masked entries stay out of the sums, as on the CPU.
    grad[mask] = float("inf")
    backward = torch.ops.aten._masked_softmax_backward
    expected = backward(grad, y.detach(), mask, dim)
    actual = backward(grad.to("vulkan"), yv.detach(), mask.to("vulkan"), dim)
    torch.testing.assert_close(actual.cpu(), expected, **TOL)


def test_masked_softmax_backward_errors(no_fallback):
    backward = torch.ops.aten._masked_softmax_backward
    grad, out = torch.randn(2, 4, 4), torch.rand(2, 4, 4)
    assert_raises_as_cpu(backward, grad, out, torch.rand(4, 4) > 0.5, -1)  # a mask of type 0
    assert_raises_as_cpu(backward, grad, out, torch.ones(2, 4, 4), -1)
