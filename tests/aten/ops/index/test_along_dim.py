"""index_add, index_copy, index_fill and index_reduce on the vulkan device
(csrc/aten/ops/index/along_dim.cpp), in strict mode against the CPU: every
dimension, repeated indices, alpha, scalar and tensor fill values, 0-dim
tensors, gradients, and OpInfo samples."""

import pytest
import torch

from tests.opinfo import check_op, parametrize


def V(t):
    return t.to("vulkan")


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_index_add_repeats_and_alpha(dim, no_fallback):
    torch.manual_seed(0)
    self = torch.randn(4, 5, 6)
    index = torch.tensor([0, 3, 0, 2])  # a repeated index adds twice
    shape = list(self.shape)
    shape[dim] = len(index)
    source = torch.randn(shape)
    torch.testing.assert_close(V(self).index_add(dim, V(index), V(source), alpha=-2.5).cpu(),
                               self.index_add(dim, index, source, alpha=-2.5))
    x, xv = self.clone().requires_grad_(), V(self).requires_grad_()
    s, sv = source.clone().requires_grad_(), V(source).requires_grad_()
    out, outv = x.index_add(dim, index, s), xv.index_add(dim, V(index), sv)
    grad = torch.randn(out.shape)
    out.backward(grad)
    outv.backward(V(grad))
    torch.testing.assert_close(xv.grad.cpu(), x.grad)
    torch.testing.assert_close(sv.grad.cpu(), s.grad)


def test_index_copy_and_fill(no_fallback):
    torch.manual_seed(0)
    self, index = torch.randn(5, 4), torch.tensor([4, 0, 2])
    torch.testing.assert_close(V(self).index_copy(0, V(index), V(torch.ones(3, 4))).cpu(),
                               self.index_copy(0, index, torch.ones(3, 4)))
    torch.testing.assert_close(V(self).index_fill(1, V(torch.tensor([0, 3])), -1.5).cpu(),
                               self.index_fill(1, torch.tensor([0, 3]), -1.5))
    torch.testing.assert_close(V(self).index_fill(1, V(torch.tensor([1])), V(torch.tensor(7.0))).cpu(),
                               self.index_fill(1, torch.tensor([1]), torch.tensor(7.0)))
    torch.testing.assert_close(V(torch.tensor(3.0)).index_fill(0, V(torch.tensor([0])), 1.0).cpu(), torch.tensor(1.0))
    with pytest.raises(RuntimeError, match="Expected dtype int64 for index"):
        V(self).index_fill_(0, V(torch.tensor([0], dtype=torch.int32)), 1.0)


@parametrize(["index_add", "index_copy", "index_fill"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant, tolerances={torch.float16: (1e-2, 1e-2), torch.bfloat16: (5e-2, 5e-2)})


@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_index_reduce(reduce, include_self, no_fallback):
    torch.manual_seed(0)
    self, source = torch.randn(4, 6), torch.randn(4, 5)
    index = torch.tensor([0, 5, 0, 2, 5])
    got = V(self).index_reduce_(1, V(index), V(source), reduce, include_self=include_self)
    torch.testing.assert_close(got.cpu(), self.index_reduce(1, index, source, reduce, include_self=include_self))


@parametrize([("index_reduce", r) for r in ("prod", "mean", "amax", "amin")])
def test_index_reduce_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
