"""torchvulkan._C.pipeline_statistics: the driver's compiler statistics for a
kernel (VK_KHR_pipeline_executable_properties), the instrument that found the
tensor-core GEMM's accumulators in local memory."""

import pytest

import torchvulkan


def test_statistics_name_and_value_per_entry():
    stats = torchvulkan._C.pipeline_statistics("copy_bits.4", 0)
    if not stats:
        pytest.skip("the driver has no VK_KHR_pipeline_executable_properties")
    for s in stats:
        assert set(s) == {"executable", "name", "value"}
        assert s["name"] and s["value"]


def test_unknown_kernel_is_an_error():
    with pytest.raises(RuntimeError, match="was not built"):
        torchvulkan._C.pipeline_statistics("no_such_kernel", 0)
