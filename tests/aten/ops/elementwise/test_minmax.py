from tests.opinfo import check_op, parametrize

OPS = ["maximum", "minimum", "fmax", "fmin", "clamp", "clamp_min", "clamp_max"]


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
