"""Runs PyTorch's own OpInfo samples (torch.testing._internal op_db) on the
vulkan device in strict mode and compares every result with the CPU.

A test module lists its ops and calls `parametrize(names)`:

    from tests.opinfo import check_op, parametrize

    @parametrize(["exp", "log", ("round", "decimals_3")])
    def test_unary(op, dtype, variant, no_fallback):
        check_op(op, dtype, variant)

Per op and dtype it checks up to MAX_SAMPLES samples of each kind: the plain
samples, their non-contiguous versions, and the reference inputs (edge values,
broadcasting); `variant` picks the functional, in-place or out= form. Any CPU
fallback fails the test (the `no_fallback` fixture sets TORCHVULKAN_STRICT).
"""

import itertools

import pytest
import torch
from torch.testing._internal.common_methods_invocations import op_db

# Every dtype a vulkan device can hold (float64 only where the device has it).
DEVICE_DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
                 torch.float16, torch.bfloat16, torch.float32, torch.float64]
MAX_SAMPLES = 6
VARIANTS = ["functional", "inplace", "out"]


def _find(name, variant_test_name=""):
    for op in op_db:
        if op.name == name and op.variant_test_name == variant_test_name:
            return op
    raise LookupError(f"no OpInfo {name!r} ({variant_test_name!r})")


def _device_dtypes():
    import torchvulkan

    dtypes = list(DEVICE_DTYPES)
    if torchvulkan.is_available() and not torchvulkan.get_device_properties(0).float64:
        dtypes.remove(torch.float64)
    return dtypes


def parametrize(names, variants=VARIANTS):
    """Parametrizes a test over (op, dtype, variant) for the named OpInfos."""
    cases = []
    for name in names:
        op = _find(*name) if isinstance(name, tuple) else _find(name)
        label = op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")
        for dtype in sorted(op.supported_dtypes("cpu") & set(_device_dtypes()), key=str):
            for variant in variants:
                cases.append(pytest.param(op, dtype, variant, id=f"{label}-{str(dtype)[6:]}-{variant}"))
    return pytest.mark.parametrize("op,dtype,variant", cases)


def _to_device(value):
    if isinstance(value, (list, tuple)):  # tensor lists (cat) and index tuples
        return type(value)(_to_device(v) for v in value)
    return value.to("vulkan") if isinstance(value, torch.Tensor) else value


def _samples(op, dtype):
    plain = list(itertools.islice(op.sample_inputs("cpu", dtype), MAX_SAMPLES))
    noncontiguous = [s.noncontiguous() for s in plain[:MAX_SAMPLES // 2]]
    reference = list(itertools.islice(op.reference_inputs("cpu", dtype), MAX_SAMPLES))
    return plain + noncontiguous + reference


def _tolerances(dtype):
    # GPU math libraries differ from the CPU's by an ulp or two.
    return {torch.float16: (1e-3, 1e-3), torch.bfloat16: (1.6e-2, 1e-2),
            torch.float32: (1e-5, 1e-5), torch.float64: (1e-7, 1e-7)}.get(dtype, (0, 0))


def _compare(actual, expected, dtype, context, tolerances=None):
    if isinstance(expected, (tuple, list)):
        for a, e in zip(actual, expected):
            _compare(a, e, dtype, context, tolerances)
        return
    if not isinstance(expected, torch.Tensor):
        assert actual == expected, context
        return
    assert actual.device.type == "vulkan", f"{context}: result on {actual.device}"
    rtol, atol = (tolerances or {}).get(expected.dtype, _tolerances(expected.dtype))
    torch.testing.assert_close(actual.cpu(), expected, rtol=rtol, atol=atol, equal_nan=True,
                               msg=lambda m: f"{context}\n{m}")


def _upcast(value):
    if isinstance(value, (list, tuple)):
        return type(value)(_upcast(v) for v in value)
    is_16_bit = isinstance(value, torch.Tensor) and value.dtype in (torch.float16, torch.bfloat16)
    return value.float() if is_16_bit else value


def check_op(op, dtype, variant, tolerances=None, upcast_16_bit=False, keep=None):
    """`tolerances` ({dtype: (rtol, atol)}) replaces the defaults for those
    dtypes. `keep(sample)`: which samples apply to this device, where the CPU
    accepts more (lstsq's drivers other than gels). `upcast_16_bit`: for float16/bfloat16, the expected values are the
    CPU's float32 results from the same (16-bit) inputs, rounded, where the
    CPU computes in 16 bits and this device, as CUDA, in float32."""
    fn = {"functional": op, "inplace": op.inplace_variant, "out": op}[variant]
    if variant == "inplace" and fn is None:
        pytest.skip("no in-place variant")
    if variant == "out" and not op.supports_out:
        pytest.skip("no out= variant")
    checked = 0
    for sample in _samples(op, dtype):
        if keep is not None and not keep(sample):
            continue
        args, kwargs = sample.args, dict(sample.kwargs)
        source = sample.input.clone() if variant == "inplace" else sample.input
        context = f"{op.name} {variant} {dtype} input {tuple(source.shape) if isinstance(source, torch.Tensor) else source} args {args} kwargs {kwargs}"
        # The device's inputs are copied before the CPU runs: ops that update
        # an argument in place (batch norm's running statistics) then update
        # both copies from the same values.
        d_source = _to_device(sample.input.clone() if variant == "inplace" else sample.input)
        d_args = [_to_device(a) for a in args]
        d_kwargs = {k: _to_device(v) for k, v in kwargs.items()}
        upcast = upcast_16_bit and variant == "functional" and dtype in (torch.float16, torch.bfloat16)
        try:
            if upcast:
                expected = _upcast(fn(_upcast(source), *_upcast(args), **{k: _upcast(v) for k, v in kwargs.items()}))
                expected = expected.to(dtype) if isinstance(expected, torch.Tensor) else expected
            else:
                expected = fn(source, *args, **kwargs)
        except Exception:
            # The CPU rejects this sample (e.g. an in-place op whose result would
            # need another dtype): the device must reject it too.
            with pytest.raises(Exception):
                fn(d_source, *d_args, **d_kwargs)
            continue
        if variant == "out":
            if isinstance(expected, torch.Tensor):
                out = torch.empty_like(expected, device="vulkan")
                result = fn(d_source, *d_args, **d_kwargs, out=out)
                assert result is out, context
            elif isinstance(expected, tuple) and all(isinstance(e, torch.Tensor) for e in expected):
                # Ops returning several tensors (sort, topk, cummax, aminmax,
                # max.dim, ...) take a tuple of outputs and return them.
                out = tuple(torch.empty_like(e, device="vulkan") for e in expected)
                try:  # some forms take no out= at all (nonzero(as_tuple=True))
                    fn(source, *args, **kwargs, out=tuple(torch.empty_like(e) for e in expected))
                except Exception:
                    with pytest.raises(Exception):
                        fn(d_source, *d_args, **d_kwargs, out=out)
                    continue
                result = fn(d_source, *d_args, **d_kwargs, out=out)
                assert len(result) == len(out) and all(r is o for r, o in zip(result, out)), context
            else:
                continue
            actual = out
        else:
            actual = fn(d_source, *d_args, **d_kwargs)
            if variant == "inplace":
                assert actual is d_source, context
        _compare(actual, expected, dtype, context, tolerances)
        if variant != "inplace" and not upcast:  # the inputs as the CPU left them (mostly untouched)
            _compare((d_source, *d_args), (source, *args), dtype, context + " (inputs)", tolerances)
        checked += 1
    if checked == 0:
        pytest.skip("no sample the CPU accepts")
