"""csrc/runtime/float_controls.cpp: every kernel's module declares
SignedZeroInfNanPreserve for the float widths it computes in, so that no
driver compiles PyTorch's infinities and NaNs away (NVIDIA's did: ctc_loss's
log-space sums on the H100). The validation-layer run (test_validation.py)
checks that the edited modules are valid SPIR-V."""

import pytest
import torch

import torchvulkan


def widths(name):
    return torchvulkan._C.preserved_float_widths(name, 0)


def test_float32_kernel_preserves_32_only():
    assert widths("binary.add.f32") == [32]


def test_float64_kernel_also_preserves_64():
    if "binary.add.f64" not in torchvulkan._C.kernel_names():
        pytest.skip("the device has no float64")
    assert widths("binary.add.f64") == [32, 64]


def test_integer_kernel_still_preserves_32():
    # 32 always: integer kernels may compute float intermediates.
    assert widths("binary.add.i64") == [32]


def test_unknown_kernel_is_an_error():
    with pytest.raises(RuntimeError, match="was not built"):
        widths("no_such_kernel")


def test_infinities_survive_a_log_space_sum(no_fallback):
    # The shape of the computation NVIDIA's compiler broke: a max over -inf
    # and exp(-inf - m) (logsumexp of a row of -inf is -inf, of -inf and 0 is 0).
    x = torch.tensor([[-float("inf")] * 3, [-float("inf"), 0.0, -float("inf")]])
    got = torch.logsumexp(x.to("vulkan"), dim=1).cpu()
    assert torch.equal(got, torch.tensor([-float("inf"), 0.0]))
