"""repr/str of vulkan tensors (formatted from a host copy, no fallback)."""

import torch

import torchvulkan


def test_repr_float(no_fallback):
    d = torch.tensor([1.5, -2.0, 3.25]).to("vulkan")
    text = repr(d)
    assert "device='vulkan:0'" in text
    assert "1.5000" in text and "-2.0000" in text and "3.2500" in text
    assert str(d) == text


def test_repr_matches_cpu_apart_from_device(no_fallback):
    for c in (
        torch.arange(6, dtype=torch.int32).reshape(2, 3),
        torch.tensor([True, False]),
        torch.tensor([float("nan"), float("inf"), -0.0]),
        torch.tensor([1.0, 2.0], dtype=torch.float16),
        torch.zeros(0, 3),
        torch.tensor(7.0),
    ):
        text = repr(c.to("vulkan"))
        assert "device='vulkan:0'" in text
        # same values and layout; only the device annotation is added
        assert text.replace(", device='vulkan:0'", "") == repr(c)


def test_repr_summarized_large(no_fallback):
    c = torch.arange(2000, dtype=torch.float32)
    text = repr(c.to("vulkan"))
    assert "..." in text and "1.9990e+03" in text and "device='vulkan:0'" in text


def test_repr_non_contiguous_view(no_fallback):
    c = torch.arange(12).reshape(3, 4)
    text = repr(c.to("vulkan").t()[::2])
    assert repr(c.t()[::2]).rstrip(")") in text


def test_printing_does_not_use_fallback():
    torchvulkan.reset_fallback_counts()
    d = torch.randn(5, 5).to("vulkan")
    repr(d)
    str(d[1:, ::2])
    format(d)
    assert torchvulkan.fallback_counts() == {}


def test_print_parameter(no_fallback, capsys):
    p = torch.nn.Parameter(torch.ones(2).to("vulkan"))
    print(p)
    out = capsys.readouterr().out
    assert "Parameter containing" in out and "device='vulkan:0'" in out
