"""frexp on the vulkan device (csrc/aten/ops/elementwise/frexp.cpp), in
strict mode against the CPU: normal, subnormal and special values of every
floating dtype, the out= form, OpInfo samples and bad dtypes."""

import pytest
import torch

from tests.helpers import assert_bitwise_equal
from tests.opinfo import check_op, parametrize


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64], ids=str)
def test_matches_cpu(dtype, no_fallback):
    if dtype == torch.float64 and not torch.vulkan.get_device_properties().float64:
        pytest.skip("no float64 on this device")
    info = torch.finfo(dtype)
    special = torch.tensor([0.0, -0.0, 1.0, -1.0, 0.5, 3.0, info.max, info.min, info.tiny, info.tiny / 4,
                            -info.tiny / 8, float("inf"), float("-inf"), float("nan")], dtype=torch.float64)
    x = torch.cat([special, torch.randn(200, dtype=torch.float64) * 1e3]).to(dtype)
    mantissa, exponent = torch.frexp(x.to("vulkan"))
    expected_m, expected_e = torch.frexp(x)
    assert_bitwise_equal(mantissa.cpu(), expected_m)
    assert torch.equal(exponent.cpu(), expected_e)


def test_out_and_bad_dtype(no_fallback):
    x = torch.randn(5, device="vulkan")
    m, e = torch.empty(5, device="vulkan"), torch.empty(5, dtype=torch.int32, device="vulkan")
    assert torch.frexp(x, out=(m, e))[0] is m
    torch.testing.assert_close(m.cpu() * 2.0 ** e.cpu(), x.cpu())
    with pytest.raises(RuntimeError, match="only supports floating-point dtypes"):
        torch.frexp(torch.ones(3, dtype=torch.int32, device="vulkan"))


@parametrize(["frexp"])
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
