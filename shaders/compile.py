#!/usr/bin/env python3
"""Compile the GLSL compute shaders listed in the shaders/**/*.toml variant
lists to SPIR-V with glslc and embed them in one generated C++ source.

A variant list names GLSL sources under shaders/ and how to expand them:
    [[kernel]]
    name = "convert"; source = "copy/convert.comp"
    dtypes = ["SRC", "DST"]   # roles: one variant per dtype, or per ordered
                              # pair of distinct dtypes for two roles
    widths = [1, 2, 4, 8]     # or: one variant per element width (WIDTH)
    ops = { exp = "float", neg = "numeric" }
                              # or: one variant per op and dtype of its set
                              # (DTYPE_SETS), defining OP_<op>; `fixed` pins
                              # roles to a dtype (fixed = { OUT = "b8" })
    defines = { t128 = { TILE_N = 128 } }
                              # with ops: macros for an op's variants, for
                              # kernels specialized at compile time
    requires_compiler = "coopmat"   # only where that compiler probe passes
    requires_device = ["coopmat"]   # device features the kernel needs beyond
                                    # its dtypes' (Feature:: in embedded_kernels.h)
Variant names: "convert.f32.bf16", "copy_bits.4", "fill.i64", "unary.exp.f16".

Each variant is a small wrapper file: the dtype-specific loads and stores for
its roles (SRC, DST, OUT, ...) followed by an #include of the kernel source.
Results are cached in the work folder by a hash of their inputs, so a rebuild
recompiles only what changed.
"""
import argparse
import concurrent.futures as cf
import hashlib
import itertools
import os
import subprocess
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent

# name: (storage type, compute type, device features its storage needs)
DTYPES = {
    "b8": ("uint8_t", "bool", ["storage8"]),
    "u8": ("uint8_t", "int", ["storage8"]),
    "i8": ("int8_t", "int", ["storage8"]),
    "i16": ("int16_t", "int", ["storage16"]),
    "i32": ("int", "int", []),
    "i64": ("int64_t", "int64_t", []),
    "f16": ("uint16_t", "float", ["storage16"]),
    "bf16": ("uint16_t", "float", ["storage16"]),
    "f32": ("float", "float", []),
    "f64": ("double", "double", ["float64"]),
}
REF = {  # buffer_reference block for each storage type
    "uint8_t": ("RefU8", 1), "int8_t": ("RefI8", 1), "uint16_t": ("RefU16", 2),
    "int16_t": ("RefI16", 2), "int": ("RefI32", 4), "int64_t": ("RefI64", 8),
    "float": ("RefF32", 4), "double": ("RefF64", 8),
}
# Named dtype sets for kernels whose variants are listed per op.
DTYPE_SETS = {
    "float": ["f16", "bf16", "f32", "f64"],
    "int": ["u8", "i8", "i16", "i32", "i64"],
    "bool": ["b8"],
}
DTYPE_SETS["float32"] = ["f16", "bf16", "f32"]  # math in float; no f64 builtins in GLSL
DTYPE_SETS["numeric"] = DTYPE_SETS["int"] + DTYPE_SETS["float"]
DTYPE_SETS["all"] = DTYPE_SETS["numeric"] + DTYPE_SETS["bool"]
DTYPE_SETS["integral"] = DTYPE_SETS["int"] + DTYPE_SETS["bool"]


def dtype_set(spec):
    """"float", "int+bool", ... -> list of dtype names."""
    out = []
    for part in spec.split("+"):
        out += DTYPE_SETS.get(part, [part])
    return out


# Compiler probes: a feature is available when its snippet compiles.
PROBES = {
    "coopmat": """#version 460
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 32) in;
void main() { coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a; }
""",
    "coopmat2": """#version 460
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 32) in;
void main() { coopmat<float16_t, gl_ScopeWorkgroup, 16, 16, gl_MatrixUseA> a; }
""",
    "bfloat16": """#version 460
#extension GL_EXT_bfloat16 : require
layout(local_size_x = 32) in;
void main() { bfloat16_t x = bfloat16_t(1.0); }
""",
}


# Four consecutive elements as one aligned vector access, per storage type.
# `restrict`: an elementwise invocation reads each element before it writes
# it, and ATen rejects partially overlapping operands, so the compiler may
# keep several vector loads in flight across the stores.
# (reference block, vector type, load expression of element k from `w`,
#  store packing expression of the four computed values v[0..3]).
def vector_code(role, dt):
    storage, compute, _ = DTYPES[dt]
    if dt in ("f32", "i32"):
        vec = "vec4" if dt == "f32" else "ivec4"
        ref = f"{role}Ref4"
        decl = f"layout(buffer_reference, std430, buffer_reference_align = 16) restrict buffer {ref} {{ {vec} v; }};\n"
        load = f"{vec} w = {ref}(a).v; for (int k = 0; k < 4; ++k) v[k] = w[k];"
        store = f"{ref}(a).v = {vec}(v[0], v[1], v[2], v[3]);"
    elif dt in ("i64", "f64"):
        vec = "i64vec2" if dt == "i64" else "dvec2"
        ref = f"{role}Ref2"
        decl = f"layout(buffer_reference, std430, buffer_reference_align = 16) restrict buffer {ref} {{ {vec} v[2]; }};\n"
        load = f"{ref} r = {ref}(a); for (int k = 0; k < 4; ++k) v[k] = r.v[k / 2][k % 2];"
        store = f"{ref} r = {ref}(a); r.v[0] = {vec}(v[0], v[1]); r.v[1] = {vec}(v[2], v[3]);"
    elif storage in ("uint16_t", "int16_t"):
        ref = f"{role}RefU2"
        decl = f"layout(buffer_reference, std430, buffer_reference_align = 8) restrict buffer {ref} {{ uvec2 v; }};\n"
        half = {"f16": ("unpackHalf2x16(h).x", "f32_to_f16_bits(x)"),
                "bf16": ("uintBitsToFloat(h << 16)", "f32_to_bf16_bits(x)"),
                "i16": ("int(bitfieldExtract(int(h), 0, 16))", "uint(x) & 0xFFFFu")}[dt]
        load = (f"uvec2 w = {ref}(a).v; for (int k = 0; k < 4; ++k) {{ uint h = (w[k / 2] >> (16 * (k % 2))) & 0xFFFFu; "
                f"v[k] = {half[0]}; }}")
        store = (f"uint p[4]; for (int k = 0; k < 4; ++k) {{ {compute} x = v[k]; p[k] = {half[1]}; }} "
                 f"{ref}(a).v = uvec2(p[0] | (p[1] << 16), p[2] | (p[3] << 16));")
    else:  # one-byte types
        ref = f"{role}RefU1"
        decl = f"layout(buffer_reference, std430, buffer_reference_align = 4) restrict buffer {ref} {{ uint v; }};\n"
        byte = {"b8": ("b != 0u", "uint(x ? 1 : 0)"), "u8": ("int(b)", "uint(x) & 0xFFu"),
                "i8": ("bitfieldExtract(int(b), 0, 8)", "uint(x) & 0xFFu")}[dt]
        load = f"uint w = {ref}(a).v; for (int k = 0; k < 4; ++k) {{ uint b = (w >> (8 * k)) & 0xFFu; v[k] = {byte[0]}; }}"
        store = (f"uint w = 0u; for (int k = 0; k < 4; ++k) {{ {compute} x = v[k]; w |= ({byte[1]}) << (8 * k); }} "
                 f"{ref}(a).v = w;")
    return (decl + f"void {role}_load4(uint64_t a, out {compute} v[4]) {{ {load} }}\n"
            f"void {role}_store4(uint64_t a, {compute} v[4]) {{ {store} }}\n")


def role_code(role, dt):
    storage, compute, _ = DTYPES[dt]
    ref, _ = REF[storage]
    if dt == "f16":
        load = f"unpackHalf2x16(uint({ref}(a).v)).x"
        store = f"{ref}(a).v = uint16_t(f32_to_f16_bits(v));"
    elif dt == "bf16":
        load = f"uintBitsToFloat(uint({ref}(a).v) << 16)"
        store = f"{ref}(a).v = uint16_t(f32_to_bf16_bits(v));"
    elif dt == "b8":
        load = f"{ref}(a).v != uint8_t(0)"
        store = f"{ref}(a).v = uint8_t(v ? 1 : 0);"
    else:
        load = f"{compute}({ref}(a).v)"
        # Narrow integer stores truncate (wrap) like a C++ cast.
        store = f"{ref}(a).v = {storage}(v);"
    return (
        f"#define {role}_DT_{dt.upper()} 1\n"
        f"#define {role}_T {compute}\n"
        f"#define {role}_BYTES {REF[storage][1]}\n"
        f"#define {role}_CAST to_{compute}\n"      # any compute type -> this one
        f"#define {role}_SCALAR scalar_{compute}\n"  # scalar parameter k as this type
        f"{compute} {role}_load(uint64_t a) {{ return {load}; }}\n"
        f"void {role}_store(uint64_t a, {compute} v) {{ {store} }}\n"
    ) + vector_code(role, dt)


def expand(kernel):
    """Yield (variant name, wrapper prelude, required device features)."""
    name = kernel["name"]
    if "widths" in kernel:
        for w in kernel["widths"]:
            needs = {1: ["storage8"], 2: ["storage16"]}.get(w, [])
            yield f"{name}.{w}", f'#define WIDTH {w}\n#include "common/base.glsl"\n', needs
        return
    roles = kernel.get("dtypes")
    if "ops" in kernel:
        # One variant per op and dtype; every role takes the dtype except the
        # roles pinned in `fixed` (a comparison's OUT is always b8).
        fixed = kernel.get("fixed", {})
        defines = kernel.get("defines", {})
        for op, spec in kernel["ops"].items():
            for dt in dtype_set(spec):
                dts = {role: fixed.get(role, dt) for role in roles}
                needs = set()
                for d in dts.values():
                    needs.update(DTYPES[d][2])
                prelude = f"#define OP_{op} 1\n" + ("#define USES_F64 1\n" if "float64" in needs else "")
                prelude += "".join(f"#define {k} {v}\n" for k, v in defines.get(op, {}).items())
                prelude += '#include "common/base.glsl"\n'
                for role, d in dts.items():
                    prelude += role_code(role, d)
                yield f"{name}.{op}.{dt}", prelude, sorted(needs)
        return
    if not roles:
        yield name, '#include "common/base.glsl"\n', []
        return
    for combo in itertools.product(DTYPES, repeat=len(roles)):
        if len(set(combo)) < len(combo):
            continue
        prelude, needs = "", set()
        for role, dt in zip(roles, combo):
            needs.update(DTYPES[dt][2])
        if "float64" in needs:
            prelude += "#define USES_F64 1\n"
        prelude += '#include "common/base.glsl"\n'
        for role, dt in zip(roles, combo):
            prelude += role_code(role, dt)
        yield f"{name}." + ".".join(combo), prelude, sorted(needs)


def glslc_ok(glslc, source, work):
    path = Path(work) / "probe.comp"
    path.write_text(source)
    r = subprocess.run([glslc, "--target-env=vulkan1.3", "-o", os.devnull, str(path)],
                       capture_output=True)
    return r.returncode == 0


def compile_variant(glslc, work, name, source, prelude):
    text = "#version 460\n" + prelude + f'#include "{source}"\n'
    # What a kernel can include: the shared headers and those beside its source.
    includes = sorted((HERE / "common").glob("*.glsl")) + sorted((HERE / source).parent.glob("*.glsl"))
    deps = "".join(p.read_text() for p in includes)
    digest = hashlib.sha256((text + deps + (HERE / source).read_text()).encode()).hexdigest()[:16]
    spv = Path(work) / f"{name}.{digest}.spv"
    if not spv.exists():
        wrapper = Path(work) / f"{name}.comp"
        wrapper.write_text(text)
        cmd = [glslc, "--target-env=vulkan1.2", "-O", "-I", str(HERE), "-o", str(spv) + ".tmp", str(wrapper)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"glslc failed for {name}:\n{r.stderr}")
        os.replace(str(spv) + ".tmp", spv)
    return spv.read_bytes()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glslc", default="glslc")
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)

    features = [f for f, src in PROBES.items() if glslc_ok(args.glslc, src, args.work)]
    kernels = []
    for path in sorted(HERE.rglob("*.toml")):
        kernels += tomllib.loads(path.read_text()).get("kernel", [])
    jobs = []
    for kernel in kernels:
        required = kernel.get("requires_compiler")
        if required and required not in features:
            continue
        for name, prelude, needs in expand(kernel):
            jobs.append((name, kernel["source"], prelude, sorted(set(needs) | set(kernel.get("requires_device", [])))))

    with cf.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        blobs = list(pool.map(lambda j: compile_variant(args.glslc, args.work, j[0], j[1], j[2]), jobs))

    out = ["// Generated by shaders/compile.py. Do not edit.",
           '#include "runtime/embedded_kernels.h"', "namespace torchvulkan::rt {"]
    for i, blob in enumerate(blobs):
        words = [int.from_bytes(blob[k:k + 4], "little") for k in range(0, len(blob), 4)]
        out.append(f"static const uint32_t k{i}[] = {{" + ",".join(map(str, words)) + "};")
    out.append("const EmbeddedKernel kEmbeddedKernels[] = {")
    for i, (name, _, _, needs) in enumerate(jobs):
        flags = " | ".join(f"Feature::{n}" for n in needs) or "0"
        out.append(f'  {{"{name}", k{i}, sizeof(k{i}) / 4, {flags}}},')
    out.append("};")
    out.append(f"const size_t kNumEmbeddedKernels = {len(jobs)};")
    out.append("const char* const kCompilerFeatures[] = {" + "".join(f'"{f}", ' for f in features) + "nullptr};")
    out.append("}  // namespace torchvulkan::rt")
    Path(args.out).write_text("\n".join(out) + "\n")
    print(f"compile.py: {len(jobs)} kernels, compiler features: {features or 'none'}")


if __name__ == "__main__":
    sys.exit(main())
