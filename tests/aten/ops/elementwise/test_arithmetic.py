import torch

from tests.opinfo import check_op, parametrize

OPS = ["add", "sub", "mul", "rsub", ("div", "no_rounding_mode"), ("div", "trunc_rounding"),
       ("div", "floor_rounding"), "true_divide", "floor_divide", "remainder", "fmod", "pow",
       "float_power", "addcmul", "addcdiv", "lerp"]


def _no_tiny_divisor(sample):
    # The CPU's vectorized fmod returns NaN for finite x over a divisor below
    # about 2^-100 (bfloat16 -4.9 over 2^-126: NaN, its scalar loop and C's
    # fmod -0), and OpInfo puts such divisors in place of zeros.
    # test_binary_edge_values.py checks them against math.fmod instead.
    b = sample.args[0] if sample.args else None
    return not (isinstance(b, torch.Tensor) and b.is_floating_point() and
                bool(((b != 0) & (b.abs() < 2.0**-100)).any()))


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    fmod_like = op.name in ("fmod", "remainder")
    check_op(op, dtype, variant, keep=_no_tiny_divisor if fmod_like else None)
