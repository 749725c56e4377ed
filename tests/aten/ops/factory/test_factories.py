import pytest
import torch

DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16,
          torch.float32, torch.float64]


def same(actual, expected):
    assert actual.device.type == "vulkan"
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    torch.testing.assert_close(actual.cpu(), expected, rtol=1e-5 if expected.dtype != torch.bfloat16 else 1e-2,
                               atol=1e-5 if expected.is_floating_point() else 0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_arange(dtype, no_fallback):
    for args in [(10,), (2, 11), (1, 20, 3), (10, 0, -2)]:
        same(torch.arange(*args, dtype=dtype, device="vulkan"), torch.arange(*args, dtype=dtype))
    if dtype.is_floating_point:
        same(torch.arange(0, 1, 0.1, dtype=dtype, device="vulkan"), torch.arange(0, 1, 0.1, dtype=dtype))
        same(torch.arange(-1.5, 2.25, 0.25, dtype=dtype, device="vulkan"), torch.arange(-1.5, 2.25, 0.25, dtype=dtype))


@pytest.mark.parametrize("n", [1023, 1024, 1025, 5000, 100003])
def test_range_lengths(n, no_fallback):
    # Past one workgroup's block of elements (the aligned vector launches cover 4x as many per invocation).
    same(torch.arange(n, device="vulkan"), torch.arange(n))
    same(torch.linspace(-1, 1, n, device="vulkan"), torch.linspace(-1, 1, n))


def test_arange_default_dtypes(no_fallback):
    same(torch.arange(5, device="vulkan"), torch.arange(5))
    same(torch.arange(0.5, 3, device="vulkan"), torch.arange(0.5, 3))
    out = torch.empty(3, device="vulkan")
    torch.arange(4, out=out)
    same(out, torch.arange(4.0))


@pytest.mark.parametrize("dtype", DTYPES)
def test_linspace(dtype, no_fallback):
    for start, end, steps in [(0, 10, 5), (-3, 7, 11), (5, -5, 4), (0, 1, 1), (2, 3, 0), (0, 100, 33)]:
        same(torch.linspace(start, end, steps, dtype=dtype, device="vulkan"),
             torch.linspace(start, end, steps, dtype=dtype))


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool, torch.float16])
def test_eye_full(dtype, no_fallback):
    same(torch.eye(3, dtype=dtype, device="vulkan"), torch.eye(3, dtype=dtype))
    same(torch.eye(2, 4, dtype=dtype, device="vulkan"), torch.eye(2, 4, dtype=dtype))
    same(torch.full((2, 3), 1, dtype=dtype, device="vulkan"), torch.full((2, 3), 1, dtype=dtype))
    same(torch.zeros(4, dtype=dtype, device="vulkan"), torch.zeros(4, dtype=dtype))
    same(torch.ones(4, dtype=dtype, device="vulkan"), torch.ones(4, dtype=dtype))


def _logspace_cases():
    from tests.opinfo import _device_dtypes, _find

    cases = []
    for variant in ["", "tensor_overload"]:
        op = _find("logspace", variant)
        for dtype in sorted(op.supported_dtypes("cpu") & set(_device_dtypes()), key=str):
            cases.append(pytest.param(op, dtype, id=f"{op.name}{'.' + variant if variant else ''}-{str(dtype)[6:]}"))
    return cases


@pytest.mark.parametrize("op,dtype", _logspace_cases())
def test_logspace_opinfo(op, dtype, no_fallback):
    # The samples name the CPU as their device; the same calls go to vulkan.
    checked = 0
    for sample in op.sample_inputs("cpu", dtype):
        kwargs = dict(sample.kwargs, device="vulkan")
        same(op(sample.input, *sample.args, **kwargs), op(sample.input, *sample.args, **sample.kwargs))
        checked += 1
    assert checked


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.float16])
def test_logspace_out_and_exact_powers(dtype, no_fallback):
    out = torch.empty(2, 3, device="vulkan", dtype=dtype).t()
    torch.logspace(0, 6, 7, out=out)
    same(out, torch.logspace(0, 6, 7, dtype=dtype))
    same(torch.logspace(-2, 2, 5, base=2, dtype=dtype, device="vulkan"), torch.logspace(-2, 2, 5, base=2, dtype=dtype))
    with pytest.raises(RuntimeError, match="non-negative"):
        torch.logspace(0, 1, -1, device="vulkan")


@pytest.mark.parametrize("dtype", DTYPES + [torch.bool])
def test_factories_fill_on_device(dtype, no_fallback):
    like = torch.empty(2, 3, dtype=dtype, device="vulkan")
    for actual, expected in [(torch.zeros_like(like), torch.zeros(2, 3, dtype=dtype)),
                             (torch.ones_like(like), torch.ones(2, 3, dtype=dtype)),
                             (torch.full_like(like, 1), torch.full((2, 3), 1, dtype=dtype)),
                             (torch.empty_like(like).fill_(0), torch.zeros(2, 3, dtype=dtype)),
                             (torch.tensor([[1, 0, 1]], dtype=dtype, device="vulkan"),
                              torch.tensor([[1, 0, 1]], dtype=dtype)),
                             (torch.as_tensor([1, 0], dtype=dtype, device="vulkan"), torch.tensor([1, 0], dtype=dtype)),
                             (torch.zeros(0, 4, dtype=dtype, device="vulkan"), torch.zeros(0, 4, dtype=dtype)),
                             (torch.eye(3, dtype=dtype, device="vulkan"), torch.eye(3, dtype=dtype))]:
        same(actual, expected)


@pytest.mark.filterwarnings("ignore:torch.range is deprecated")
@pytest.mark.parametrize("dtype", DTYPES)
def test_range(dtype, no_fallback):
    # torch.range includes its end; integer ranges size and step in int64, so 1.5 steps by 1.
    cases = [(0, 5), (2, 11, 3), (10, 0, -2), (0, 5, 1.5), (-3, -3)]
    if dtype.is_floating_point:
        cases += [(0, 1, 0.1), (-1.5, 2.25, 0.25), (5, -5, -2.5), (0.5, 3)]
    for args in cases:
        same(torch.range(*args, dtype=dtype, device="vulkan"), torch.range(*args, dtype=dtype))


@pytest.mark.filterwarnings("ignore:torch.range is deprecated")
def test_range_out_and_errors(no_fallback):
    same(torch.range(0, 5, device="vulkan"), torch.range(0, 5))
    out = torch.empty(3, 2, device="vulkan")  # as many elements: resized nowhere, filled in order
    torch.range(0, 5, out=out)
    same(out, torch.range(0, 5).view(3, 2))
    out = torch.empty(2, 3, device="vulkan").t()  # non-contiguous
    torch.range(1, 6, out=out)
    same(out, torch.range(1, 6).view(3, 2))
    out = torch.empty(7, device="vulkan", dtype=torch.int32)
    torch.range(1, 4, out=out)
    same(out, torch.range(1, 4, dtype=torch.int32))
    for args, dtype, message in [((0, 5, 0), None, "step must be nonzero"),
                                 ((0, 5, -1), None, "inconsistent with step sign"),
                                 ((0, float("inf")), None, "unsupported range"),
                                 ((0, 5, 0.5), torch.int64, "step must be nonzero")]:  # the CPU divides by 0
        with pytest.raises(RuntimeError, match=message):
            torch.range(*args, dtype=dtype, device="vulkan")
    with pytest.raises(RuntimeError, match="not implemented for 'Bool'"):
        torch.range(0, 1, dtype=torch.bool, device="vulkan")


def test_efficient_zero_tensor(no_fallback):
    # Autograd's zero tangents: a tensor without memory that ops read as zeros.
    z = torch._efficientzerotensor((2, 3), device="vulkan")
    assert z.device.type == "vulkan" and z._is_zerotensor() and z.dtype == torch.float32
    x = torch.randn(2, 3)
    torch.testing.assert_close((z + x.to("vulkan")).cpu(), x)
    torch.testing.assert_close((z * x.to("vulkan")).cpu(), torch.zeros(2, 3))
    torch.testing.assert_close(z.cpu(), torch.zeros(2, 3))
    half = torch._efficientzerotensor((4,), dtype=torch.float16, device="vulkan")
    assert half.dtype == torch.float16 and half.cpu().eq(0).all()


def test_dependency_token(no_fallback):
    # torch.compile's runtime asserts thread one through their checks.
    token = torch._make_dep_token(device="vulkan")
    expected = torch._make_dep_token()
    assert token.device.type == "vulkan" and token.shape == expected.shape and token.dtype == expected.dtype
