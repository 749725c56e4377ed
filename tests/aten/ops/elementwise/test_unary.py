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
