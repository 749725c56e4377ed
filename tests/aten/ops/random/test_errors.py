"""Bad arguments to the sampling ops raise what the CPU raises (ATen's own
checks run for both), in strict mode so no CPU fallback answers instead."""

import re

import pytest
import torch

from tests.helpers import VK


def error_of(fn, device):
    try:
        fn(device)
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        # Without the request that c10 appends to checks that have no message.
        return type(e), str(e).split("\n")[0].split("  (Could this error message be improved?")[0]
    pytest.fail(f"no error on {device}")


def assert_raises_like_cpu(fn, same_from=None):
    """Same exception type and first line as on the CPU; `same_from`: compare
    from this phrase on (dtype dispatch errors name the kernel, which differs)."""
    cpu_type, cpu_message = error_of(fn, "cpu")
    vk_type, vk_message = error_of(fn, VK)
    assert vk_type is cpu_type, (vk_type, vk_message, cpu_type, cpu_message)
    if same_from:
        cpu_message, vk_message = (m[m.index(same_from):] for m in (cpu_message, vk_message))
    assert vk_message == cpu_message


def empty(dtype=torch.float32, n=4):
    return lambda device: torch.empty(n, device=device, dtype=dtype)


CASES = {
    "uniform from > to": (empty(), lambda t: t.uniform_(2, 1)),
    "uniform to out of float16": (empty(torch.float16), lambda t: t.uniform_(0, 1e6)),
    "uniform of ints": (empty(torch.int32), lambda t: t.uniform_()),
    "normal std < 0": (empty(), lambda t: t.normal_(0, -1)),
    "normal tensor std < 0": (empty(), lambda t: torch.normal(t.fill_(0), t.fill_(-1))),
    "normal float std < 0": (empty(), lambda t: torch.normal(t.fill_(0), -2.0)),
    "log_normal std 0": (empty(), lambda t: t.log_normal_(0, 0)),
    "exponential lambda 0": (empty(), lambda t: t.exponential_(0)),
    "exponential of ints": (empty(torch.int32), lambda t: t.exponential_()),
    "cauchy sigma < 0": (empty(), lambda t: t.cauchy_(0, -1)),
    "cauchy of ints": (empty(torch.int64), lambda t: t.cauchy_()),
    "geometric p 1": (empty(), lambda t: t.geometric_(1.0)),
    "geometric p 0": (empty(torch.int32), lambda t: t.geometric_(0.0)),
    "bernoulli p > 1": (empty(), lambda t: t.bernoulli_(1.5)),
    "bernoulli p < 0": (empty(torch.bool), lambda t: t.bernoulli_(-0.1)),
    "bernoulli tensor p > 1": (empty(), lambda t: t.bernoulli_(torch.full_like(t, 1.5))),
    "bernoulli tensor p NaN": (empty(), lambda t: t.bernoulli_(torch.full_like(t, float("nan")))),
    "bernoulli tensor p shape": (empty(), lambda t: t.bernoulli_(torch.ones(3, device=t.device))),
    "random from >= to": (empty(torch.int32), lambda t: t.random_(5, 3)),
    "random int8 to": (empty(torch.int8), lambda t: t.random_(0, 1000)),
    "random uint8 from": (empty(torch.uint8), lambda t: t.random_(-1, 5)),
    "random bool to": (empty(torch.bool), lambda t: t.random_(0, 3)),
    "random float16 to": (empty(torch.float16), lambda t: t.random_(0, 70000)),
    "random int16 from only": (empty(torch.int16), lambda t: t.random_(40000, None)),
    "dropout p > 1": (empty(), lambda t: torch.native_dropout(t, 1.5, True)),
    "dropout of ints": (empty(torch.int32), lambda t: torch.native_dropout(t, 0.5, True)),
    "dropout of ints, p > 1": (empty(torch.int32), lambda t: torch.native_dropout(t, 1.5, True)),
    "randperm n < 0": (lambda d: d, lambda d: torch.randperm(-1, device=d)),
    "randperm float16 n": (lambda d: d, lambda d: torch.randperm(3000, device=d, dtype=torch.float16)),
    "multinomial negative": (lambda d: torch.tensor([0.5, -1.0], device=d), lambda p: torch.multinomial(p, 2, True)),
    "multinomial inf": (lambda d: torch.tensor([0.5, float("inf")], device=d), lambda p: torch.multinomial(p, 2, True)),
    "multinomial zero sum": (lambda d: torch.zeros(2, 3, device=d), lambda p: torch.multinomial(p, 2, True)),
    "multinomial negative, no replacement": (lambda d: torch.tensor([0.5, -1.0], device=d),
                                             lambda p: torch.multinomial(p, 1)),
    "multinomial too many": (lambda d: torch.ones(3, device=d), lambda p: torch.multinomial(p, 4)),
    "multinomial 3-d": (lambda d: torch.ones(2, 2, 2, device=d), lambda p: torch.multinomial(p, 1)),
    "multinomial ints": (lambda d: torch.ones(3, device=d, dtype=torch.int32), lambda p: torch.multinomial(p, 1)),
    "multinomial no samples": (lambda d: torch.ones(3, device=d), lambda p: torch.multinomial(p, 0)),
}


@pytest.mark.parametrize("name", CASES)
def test_raises_like_cpu(name, no_fallback):
    make, op = CASES[name]
    assert_raises_like_cpu(lambda device: op(make(device)))


# dtype dispatch errors name the kernel ("normal_kernel_cpu", "random.normal"):
# the same type and the same "not implemented for '<dtype>'".
DISPATCH_CASES = {
    "normal of ints": (empty(torch.int32), lambda t: t.normal_()),
    "log_normal of ints": (empty(torch.int16), lambda t: t.log_normal_()),
    "geometric of bool": (empty(torch.bool), lambda t: t.geometric_(0.5)),
    "bernoulli int p": (empty(), lambda t: t.bernoulli_(torch.ones(4, dtype=torch.int32, device=t.device))),
}


@pytest.mark.parametrize("name", DISPATCH_CASES)
def test_dtype_errors_like_cpu(name, no_fallback):
    make, op = DISPATCH_CASES[name]
    assert_raises_like_cpu(lambda device: op(make(device)), same_from="not implemented for")


def test_full_64_bit_range_of_other_dtypes(no_fallback):
    assert_raises_like_cpu(lambda d: torch.empty(3, device=d, dtype=torch.int32).random_(-(2**63), None),
                           same_from="handles only")


def test_generator_of_another_device(no_fallback):
    with pytest.raises(RuntimeError, match=re.escape("Expected a 'vulkan' device type for generator but found 'cpu'")):
        torch.empty(4, device=VK).uniform_(generator=torch.Generator())
    with pytest.raises(RuntimeError, match="Expected a 'vulkan:0' generator device but found 'cpu'"):
        torch.randperm(4, device=VK, generator=torch.Generator())
