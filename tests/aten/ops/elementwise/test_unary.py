import torch

from tests.helpers import assert_out_matches_cpu, assert_raises_as_cpu
from tests.opinfo import check_op, parametrize

EXP_LOG = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal"]
TRIG = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]
SPECIAL = ["sigmoid", "logit", "erf", "erfc", "erfinv", "lgamma", "digamma", "sinc"]
SIGN = ["neg", "abs", "sign", "sgn"]
ROUNDING = ["floor", "ceil", "round", ("round", "decimals_0"), ("round", "decimals_3"),
            ("round", "decimals_neg_3"), "trunc", "frac"]
CLASSIFY = ["isnan", "isinf", "isfinite", "isposinf", "isneginf", "signbit", "nan_to_num"]


@parametrize(EXP_LOG + TRIG + SPECIAL + SIGN + ROUNDING + CLASSIFY)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


# mvlgamma is composite (lgamma of a range, summed); its out= form is ATen's own.
@parametrize([("mvlgamma", "mvlgamma_p_1"), ("mvlgamma", "mvlgamma_p_3")], variants=["functional", "out"])
def test_mvlgamma(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)


def test_mvlgamma_out(no_fallback):
    def mvlgamma(x, out):
        return torch.mvlgamma(x, 3, out=out)

    x = torch.rand(3, 4) + 2
    assert_out_matches_cpu(mvlgamma, x)
    assert_out_matches_cpu(mvlgamma, x, dtype=torch.float16, rtol=1e-3, atol=1e-3)  # cast into out
    assert_raises_as_cpu(mvlgamma, x, torch.empty(0, dtype=torch.int64))
