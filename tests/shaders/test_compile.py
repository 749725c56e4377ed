"""shaders/compile.py's expansion of a variant list into kernels: which
variants a compiler's features admit, and the device features and workgroup
sizes they carry into the package."""

import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parents[2] / "shaders" / "compile.py"
_spec = importlib.util.spec_from_file_location("shader_compile", _PATH)
compile_py = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compile_py)

KERNEL = {
    "name": "k", "source": "k.comp", "dtypes": ["X"],
    "ops": {"a": "f16+bf16"},
    "defines": {"a": {"BM": 64, "WORKGROUP": 128}},
    "requires_for": {"bf16": {"compiler": "bfloat16", "device": ["coopmat_bf16"]}},
}


def variants(features):
    return {name: (needs, workgroup, prelude)
            for name, prelude, needs, workgroup in compile_py.expand(KERNEL, features)}


def test_a_dtype_needing_a_compiler_feature_is_left_out_without_it():
    assert list(variants(["coopmat"])) == ["k.a.f16"]


def test_with_the_feature_it_is_built_and_needs_its_device_feature():
    built = variants(["coopmat", "bfloat16"])
    assert list(built) == ["k.a.f16", "k.a.bf16"]
    assert sorted(built["k.a.bf16"][0]) == ["coopmat_bf16", "storage16"]
    assert built["k.a.f16"][0] == ["storage16"]


def test_defines_reach_the_prelude_and_workgroup_the_kernel():
    needs, workgroup, prelude = variants([])["k.a.f16"]
    assert workgroup == 128
    assert "#define BM 64\n" in prelude and "#define X_DT_F16 1\n" in prelude


def test_includes_are_followed_through_other_includes():
    # A kernel's cache digest covers every file it includes, and those that
    # include common/fault.glsl get the fault word's address.
    gather = compile_py.included(compile_py.wrapper_text("index/gather.comp", '#include "common/base.glsl"\n'))
    assert {"index/gather.comp", "index/bits.glsl", "common/fault.glsl", "common/base.glsl"} <= set(gather)
    distance = compile_py.included(compile_py.wrapper_text("linalg/distance.comp", ""))
    assert "elementwise/pointwise_math.glsl" in distance and "common/math.glsl" in distance
    assert "common/fault.glsl" not in compile_py.included(compile_py.wrapper_text("elementwise/unary.comp", ""))
