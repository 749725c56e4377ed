from tests.opinfo import check_op, parametrize

OPS = ["add", "sub", "mul", "rsub", ("div", "no_rounding_mode"), ("div", "trunc_rounding"),
       ("div", "floor_rounding"), "true_divide", "floor_divide", "remainder", "fmod", "pow",
       "float_power", "addcmul", "addcdiv", "lerp"]


@parametrize(OPS)
def test_opinfo(op, dtype, variant, no_fallback):
    check_op(op, dtype, variant)
