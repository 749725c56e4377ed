"""Shared helpers for the torchvulkan tests (imported as tests.helpers)."""

import os
import subprocess
import sys
import textwrap
import warnings

import pytest
import torch

import torchvulkan

VK = torch.device("vulkan")

ALL_DTYPES = [
    torch.bool,
    torch.uint8,
    torch.int8,
    torch.int16,
    torch.int32,
    torch.int64,
    torch.float16,
    torch.bfloat16,
    torch.float32,
    torch.float64,
]
FLOAT_DTYPES = [torch.float16, torch.bfloat16, torch.float32, torch.float64]

_INT_OF_SIZE = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def bits(t: torch.Tensor) -> torch.Tensor:
    """The raw bits of a CPU tensor as an integer tensor of the same element size."""
    t = t.contiguous()
    if t.is_complex():
        t = torch.view_as_real(t)
    if t.dtype == torch.bool:
        return t.view(torch.uint8)
    return t.view(_INT_OF_SIZE[t.element_size()])


def assert_bitwise_equal(actual: torch.Tensor, expected: torch.Tensor) -> None:
    """Same dtype, shape and bits (NaN payloads and the sign of zero included)."""
    assert actual.device.type == "cpu" and expected.device.type == "cpu"
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    assert torch.equal(bits(actual), bits(expected)), f"\nactual:   {actual}\nexpected: {expected}"


def assert_same_values(actual: torch.Tensor, expected: torch.Tensor) -> None:
    """Same dtype, shape and values; NaN matches any NaN, -0.0 must match -0.0."""
    assert actual.device.type == "cpu" and expected.device.type == "cpu"
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    if actual.is_floating_point():
        nan_a, nan_e = torch.isnan(actual), torch.isnan(expected)
        assert torch.equal(nan_a, nan_e), f"\nactual:   {actual}\nexpected: {expected}"
        keep = ~nan_e
        assert torch.equal(bits(actual[keep]), bits(expected[keep])), f"\nactual:   {actual}\nexpected: {expected}"
    else:
        assert torch.equal(actual, expected), f"\nactual:   {actual}\nexpected: {expected}"


def run_python(code: str, env_extra: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter (same venv) and returns the finished process."""
    env = dict(os.environ)
    env.pop("TORCHVULKAN_STRICT", None)
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def assert_forward_backward_match(fn, *tensors, **tolerances) -> None:
    """fn of CPU leaves and of vulkan leaves made from `tensors`: the outputs
    and every input's gradient (from one random output gradient) match."""
    cpu = [t.clone().requires_grad_() for t in tensors]
    vk = [t.to("vulkan").requires_grad_() for t in tensors]
    out, outv = fn(*cpu), fn(*vk)
    torch.testing.assert_close(outv.cpu(), out, **tolerances)
    grad = torch.randn(out.shape).to(out.dtype)
    out.backward(grad)
    outv.backward(grad.to("vulkan"))
    for c, v in zip(cpu, vk):
        torch.testing.assert_close(v.grad.cpu(), c.grad, **tolerances)


def assert_out_matches_cpu(fn, *tensors, dtype=None, **tolerances) -> None:
    """fn(*tensors, out=out) on the vulkan device against the CPU, for an out
    of the result's size, an empty one and one of another size: it returns
    `out`, with the CPU's values and shape, and resized outs get the CPU's
    strides. `dtype` is out's (default: the first tensor's)."""
    dtype = dtype or tensors[0].dtype
    expected = fn(*tensors, out=torch.empty(0, dtype=dtype))
    vk = [t.to("vulkan") for t in tensors]
    for shape in (expected.shape, (0,), (expected.numel() + 3,)):
        out, outv = torch.empty(shape, dtype=dtype), torch.empty(shape, dtype=dtype, device="vulkan")
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="An output with one or more elements was resized")
            fn(*tensors, out=out)
            assert fn(*vk, out=outv) is outv
        torch.testing.assert_close(outv.cpu(), out, **tolerances)
        if shape != expected.shape:
            assert outv.stride() == out.stride(), (shape, outv.stride(), out.stride())


def assert_factor_into_strided_outputs(op, a, rows=None, **tolerances) -> None:
    """op(a, out=...) on the vulkan device, such as linalg.lu_factor_ex,
    against op(a) on the CPU, with its first output dense and the others
    (the int32 pivots and info) every other element of a wider tensor
    filled with -7: the factorizations write those through a contiguous
    copy (csrc/aten/ops/linalg/matrices.h's contiguous_flat). The integer
    outputs must match and the elements between them keep their -7; the
    first output is compared in the batches `rows` selects (default all)."""
    expected = op(a)
    out = [torch.empty(expected[0].shape, dtype=expected[0].dtype, device="vulkan")]
    wide = [torch.full((*t.shape[:-1], 2 * t.shape[-1]), -7, dtype=t.dtype, device="vulkan") for t in expected[1:]]
    out += [w[..., ::2] for w in wide]
    op(a.to("vulkan"), out=tuple(out))
    for got, want, w in zip(out[1:], expected[1:], wide):
        assert torch.equal(got.cpu(), want)
        assert w[..., 1::2].eq(-7).all().item()
    index = slice(None) if rows is None else rows
    torch.testing.assert_close(out[0].cpu()[index], expected[0][index], **tolerances)


def assert_raises_as_cpu(fn, *args) -> None:
    """fn(*args) raises on the vulkan device (its tensors moved there) what it
    raises on the CPU: the same exception type and message."""
    with pytest.raises(Exception) as cpu:
        fn(*args)
    with pytest.raises(cpu.type) as vk:
        fn(*[a.to("vulkan") if isinstance(a, torch.Tensor) else a for a in args])
    assert str(vk.value).splitlines()[0] == str(cpu.value).splitlines()[0]


def kernels_of(fn) -> list:
    """The names of the kernels `fn` dispatches on the vulkan device, in order."""
    torchvulkan._C.profile_kernels(True, 0)
    try:
        fn()
        torch.vulkan.synchronize()
    finally:
        torchvulkan._C.profile_kernels(False, 0)
    return [name for name, _ in torchvulkan._C.kernel_times(0)]


def pytest_with_tile(path, tile, selection, **variables):
    """Runs the tests of `path` matching `selection` (pytest -k) in a child
    process with TORCHVULKAN_GEMM_TILE=`tile` (read once per process), strict
    mode and any other environment `variables`; asserts they pass."""
    env = dict(os.environ, TORCHVULKAN_GEMM_TILE=tile, TORCHVULKAN_STRICT="1", **variables)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", path, "-k", selection],
                          env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:]


def require_pipeline(name):
    """Skips unless the build has kernel `name` and this device can make its
    pipeline (a forced configuration's, before running it in a child)."""
    if name not in torchvulkan._C.kernel_names():
        pytest.skip(f"no {name} in this build")
    try:
        torchvulkan._C.pipeline_statistics(name, 0)  # makes the pipeline, or says why it cannot
    except RuntimeError as error:
        pytest.skip(str(error))


def assert_phase_stamps(workgroups):
    """The last phases product's stamps (q128, qt128: gemm_phase_stamps) have
    a row a workgroup, each in order: start, step 0 staged, K loop done,
    epilogue done on the cycle counter, start before end on the device clock."""
    stamps = torchvulkan._C.gemm_phase_stamps().cpu()
    assert stamps.shape == (workgroups, 6)
    start_ns, start, staged, looped, finished, end_ns = stamps.unbind(1)
    assert bool((start <= staged).all() and (staged <= looped).all() and (looped <= finished).all())
    assert bool((start_ns <= end_ns).all())
