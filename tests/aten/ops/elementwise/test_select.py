from tests.opinfo import check_op, parametrize

OPS = ["where", "masked_fill"]


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
