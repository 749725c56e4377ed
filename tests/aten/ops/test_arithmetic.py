from tests.opinfo import check_op, parametrize

OPS = ["add", "sub", "mul", ("div", "no_rounding_mode"), "true_divide", "maximum", "minimum"]


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
