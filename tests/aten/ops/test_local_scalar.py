"""item() and the asserts that read a device value (csrc/aten/ops/local_scalar.cpp),
in strict mode: a true value passes, a false one raises the caller's message
and leaves the device usable."""

import pytest
import torch


def test_item(no_fallback):
    assert torch.tensor([2.5], device="vulkan").item() == 2.5
    assert torch.tensor(7, device="vulkan").item() == 7


@pytest.mark.parametrize("functional", [False, True], ids=["assert_async", "functional"])
def test_asserts(functional, no_fallback):
    token = torch._make_dep_token(device="vulkan")

    def check(value, message):
        flag = torch.tensor(value, device="vulkan")
        if functional:
            return torch._functional_assert_async(flag, message, token)
        return torch._assert_async(flag, message)

    out = check(True, "never raised")
    if functional:
        assert out.device.type == "vulkan" and out.shape == token.shape and out.data_ptr() != token.data_ptr()
    with pytest.raises(RuntimeError, match="the value was false"):
        check(False, "the value was false")
    assert (torch.ones(3, device="vulkan") * 2).cpu().tolist() == [2.0, 2.0, 2.0]
