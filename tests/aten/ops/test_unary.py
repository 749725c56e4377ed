from tests.opinfo import check_op, parametrize

OPS = ["neg", "reciprocal", "sqrt", "rsqrt", "exp", "log", "sin", "cos", "tanh", "sigmoid", "erf"]


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
