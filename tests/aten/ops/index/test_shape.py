import pytest
import torch

from tests.helpers import assert_forward_backward_match, assert_out_matches_cpu, assert_raises_as_cpu
from tests.opinfo import check_op, parametrize

OPS = ["cat", "stack", "flip", "roll", "tril", "triu", "repeat", "narrow_copy"]


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


def test_cat_promotes_and_skips_empty(no_fallback):
    parts = [torch.arange(6).view(2, 3).to(torch.int32), torch.randn(1, 3), torch.empty(0),
             torch.ones(2, 3, dtype=torch.float16)]
    expected = torch.cat(parts)
    actual = torch.cat([p.to("vulkan") for p in parts])
    assert actual.dtype == expected.dtype
    torch.testing.assert_close(actual.cpu(), expected)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cat_noncontiguous(dim, no_fallback):
    a = torch.randn(4, 5).t()
    b = torch.randn(5, 4)
    expected = torch.cat([a, b], dim)
    torch.testing.assert_close(torch.cat([a.to("vulkan"), b.to("vulkan")], dim).cpu(), expected)


# Contiguous inputs of the output's dtype are copied in one launch, in units
# up to 16 bytes wide (narrower where a size, offset or address needs it).
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.float64, torch.int8, torch.bool])
@pytest.mark.parametrize("dim", [0, 1, 2])
def test_cat_one_launch(dtype, dim, no_fallback):
    shapes = [(2, 3, 8), (2, 3, 8), (2, 3, 8)]
    grow = [5, 1, 4]
    parts = []
    for shape, g in zip(shapes, grow):
        s = list(shape)
        s[dim] = g
        parts.append(torch.randn(s).mul(10).to(dtype))
    expected = torch.cat(parts, dim)
    torch.testing.assert_close(torch.cat([p.to("vulkan") for p in parts], dim).cpu(), expected)
    # a sliced (misaligned) input and an empty one still go in the same launch
    flat = torch.randn(40).mul(10).to(dtype)
    vk = flat.to("vulkan")
    actual = torch.cat([vk[1:], torch.empty(0, dtype=dtype, device="vulkan"), vk[:7]])
    torch.testing.assert_close(actual.cpu(), torch.cat([flat[1:], flat[:7]]))


def test_cat_mixed_and_noncontiguous_inputs_fall_back_to_copies(no_fallback):
    a = torch.randn(4, 6)
    b = torch.randn(6, 4).t()
    c = torch.arange(24, dtype=torch.int32).view(4, 6)
    torch.testing.assert_close(torch.cat([a.to("vulkan"), b.to("vulkan")], 1).cpu(), torch.cat([a, b], 1))
    torch.testing.assert_close(torch.cat([a.to("vulkan"), c.to("vulkan")]).cpu(), torch.cat([a, c]))
    out = torch.empty(12, 6, device="vulkan").t()[:, :8].t()  # a non-contiguous out=
    torch.cat([a.to("vulkan"), a.to("vulkan")], out=out)
    torch.testing.assert_close(out.cpu(), torch.cat([a, a]))


def test_cat_of_many_inputs(no_fallback):
    parts = [torch.randn(2, k % 5) for k in range(70)]  # past the one-launch table's 64 inputs
    torch.testing.assert_close(torch.cat([p.to("vulkan") for p in parts], 1).cpu(), torch.cat(parts, 1))
    torch.testing.assert_close(torch.cat([p.to("vulkan") for p in parts[:40]], 1).cpu(), torch.cat(parts[:40], 1))


def test_channel_shuffle(no_fallback):
    x = torch.randn(2, 6, 3, 3)
    torch.testing.assert_close(torch.nn.functional.channel_shuffle(x.to("vulkan"), 3).cpu(),
                               torch.nn.functional.channel_shuffle(x, 3))
    with pytest.raises(RuntimeError, match="divisible by groups"):
        torch.nn.functional.channel_shuffle(x.to("vulkan"), 4)


@pytest.mark.parametrize("shape,dim,size,step", [((10,), 0, 3, 2), ((10,), 0, 3, 3), ((11,), 0, 2, 4),
                                                 ((4, 9, 3), 1, 4, 1), ((4, 9, 3), -1, 3, 1), ((5, 6), 0, 5, 2),
                                                 ((), 0, 1, 1)], ids=str)
def test_unfold_gradient(shape, dim, size, step, no_fallback):
    # unfold_backward: overlapping windows (step < size) add up, gaps (step >
    # size) get zero, any dim.
    assert_forward_backward_match(lambda t: t.unfold(dim, size, step) * 1.5, torch.randn(shape))


def narrow_copy(dim, start, length):
    return lambda x, out: torch.narrow_copy(x, dim, start, length, out=out)


def test_narrow_copy_out(no_fallback):
    x = torch.arange(24.0).view(2, 3, 4)
    for args in [(1, 1, 2), (-2, -3, 2), (2, 2, 0), (0, 0, 2)]:
        assert_out_matches_cpu(narrow_copy(*args), x)
        assert_out_matches_cpu(narrow_copy(*args), x.transpose(0, 2))
    out = torch.empty(2, 2, 4, device="vulkan").transpose(0, 2)  # the right size: its strides kept
    narrow_copy(1, 0, 2)(x.transpose(0, 2).to("vulkan"), out)
    assert out.stride() == (1, 4, 8)
    torch.testing.assert_close(out.cpu(), x.transpose(0, 2).narrow(1, 0, 2))


def test_narrow_copy_out_errors(no_fallback):
    x, out = torch.arange(12.0).view(3, 4), torch.empty(0)
    for args in [(1, 5, 1), (1, -5, 1), (1, 1, 4), (1, 1, -1), (-3, 0, 1), (0, -4, 1)]:
        assert_raises_as_cpu(narrow_copy(*args), x, out)
    assert_raises_as_cpu(narrow_copy(0, 0, 1), torch.tensor(1.0), out)  # 0-dim
    assert_raises_as_cpu(narrow_copy(0, 0, 1), x, torch.empty(0, dtype=torch.int32))
    with pytest.raises(RuntimeError, match="Expected dim <"):  # the CPU's words name its variables
        narrow_copy(2, 0, 1)(x.to("vulkan"), out.to("vulkan"))
