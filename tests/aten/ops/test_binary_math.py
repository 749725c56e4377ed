from tests.opinfo import check_op, parametrize

OPS = ["atan2", "hypot", "copysign", "heaviside", "xlogy", "logaddexp", "logaddexp2"]


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
