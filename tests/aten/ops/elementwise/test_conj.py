"""conj_physical (csrc/aten/ops/elementwise/conj.cpp) on the vulkan device, in
strict mode against the CPU: real dtypes (a copy) in the functional, in-place
and out= forms, complex tensors (imaginary parts negated), and out= tensors of
the wrong size, dtype or layout."""

import pytest
import torch

from tests.helpers import assert_out_matches_cpu, assert_raises_as_cpu
from tests.opinfo import check_op, parametrize


@parametrize(["conj_physical"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


def conj_out(x, out):
    return torch.conj_physical(x, out=out)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64, torch.bool], ids=str)
def test_out(dtype, no_fallback):
    x = (torch.randn(3, 4) * 5).to(dtype)
    assert_out_matches_cpu(conj_out, x)
    assert_out_matches_cpu(conj_out, x.t())  # resized outs follow the input's strides
    assert_raises_as_cpu(conj_out, x, torch.empty(0, dtype=torch.int16))
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        conj_out(x.to("vulkan"), torch.empty(4, dtype=dtype, device="vulkan").expand(3, 4))


def test_complex(no_fallback):
    torch.manual_seed(0)
    x = torch.randn(3, 4, dtype=torch.complex64)
    xv = x.to("vulkan")
    assert torch.equal(torch.conj_physical(xv).cpu(), torch.conj_physical(x))
    assert torch.equal(torch.conj_physical(xv[:, ::2]).cpu(), torch.conj_physical(x[:, ::2]))
    assert_out_matches_cpu(conj_out, x)
    y = xv.clone()
    y.conj_physical_()
    assert torch.equal(y.cpu(), torch.conj_physical(x))
