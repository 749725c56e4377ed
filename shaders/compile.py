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
                              # kernels specialized at compile time; WORKGROUP
                              # fixes the variant's workgroup size (else the
                              # device's default, specialization constant 0)
    requires_compiler = "coopmat"   # only where that compiler probe passes
    requires_device = ["coopmat"]   # device features the kernel needs beyond
                                    # its dtypes' (Feature:: in embedded_kernels.h)
    requires_for = { bf16 = { compiler = "bfloat16", device = ["coopmat_bf16"] } }
                                    # with ops: more of both for one dtype's variants
    target_env = "vulkan1.3"        # glslc's target, vulkan1.2 unless named
                                    # (extensions that need SPIR-V 1.6)
Variant names: "convert.f32.bf16", "copy_bits.4", "fill.i64", "unary.exp.f16".

Each variant is a small wrapper file: the dtype-specific loads and stores for
its roles (SRC, DST, OUT, ...) followed by an #include of the kernel source.
Results are cached in the work folder by a hash of their inputs, so a rebuild
recompiles only what changed.
"""
import argparse
import concurrent.futures as cf
import functools
import hashlib
import itertools
import os
import re
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


# The contiguous fast path (FOR_EACH_ELEMENT_VECTORIZED in common/strided.glsl)
# moves VEC consecutive elements per step, 16 bytes of the variant's narrowest
# operand: every operand access is then one or more aligned 16-byte loads or
# stores, the width GPUs need for full bandwidth (8 halves, 16 bytes, 4 floats;
# a float compare to bool takes 16 floats as four vec4). 8-byte types keep 4
# elements, two 16-byte accesses, so that no variant steps by fewer than 4.
# csrc/aten/launch.cpp picks the same number from the operands' element sizes.
def vector_elements(widths):
    return max(4, 16 // min(widths))


# Per dtype: its compute value from the storage bits b (a uint, or uvec2 for
# 8-byte types), and the storage bits of compute value x.
BITS = {
    "b8": ("b != 0u", "uint(x)"),
    "u8": ("int(b)", "uint(x) & 0xFFu"),
    "i8": ("bitfieldExtract(int(b), 0, 8)", "uint(x) & 0xFFu"),
    "i16": ("bitfieldExtract(int(b), 0, 16)", "uint(x) & 0xFFFFu"),
    "f16": ("unpackHalf2x16(b).x", "f32_to_f16_bits(x)"),
    "bf16": ("uintBitsToFloat(b << 16)", "f32_to_bf16_bits(x)"),
    "i32": ("int(b)", "uint(x)"),
    "f32": ("uintBitsToFloat(b)", "floatBitsToUint(x)"),
    "i64": ("int64_t(packUint2x32(b))", "unpackUint2x32(uint64_t(x))"),
    "f64": ("packDouble2x32(b)", "unpackDouble2x32(x)"),
}


# VEC consecutive elements as aligned uvec4 accesses, element e of each uvec4
# w unpacked from (or packed into) its words. `restrict`: an elementwise
# invocation reads each element before it writes it, and ATen rejects
# partially overlapping operands, so the compiler may keep several vector
# loads in flight across the stores.
def vector_code(role, dt, vec):
    storage, compute, _ = DTYPES[dt]
    size = REF[storage][1]
    per_access = 16 // size
    decode, encode = BITS[dt]
    if size == 8:
        get = "uvec2 b = uvec2(w[2 * e], w[2 * e + 1]);"
        put = f"uvec2 b = {encode}; w[2 * e] = b.x; w[2 * e + 1] = b.y;"
    elif size == 4:
        get, put = "uint b = w[e];", f"w[e] = {encode};"
    else:
        per_word, bits = 4 // size, 8 * size
        get = f"uint b = bitfieldExtract(w[e / {per_word}], {bits} * (e % {per_word}), {bits});"
        put = f"w[e / {per_word}] |= ({encode}) << ({bits} * (e % {per_word}));"
    ref = f"{role}Vec"
    loop = f"for (int j = 0; j < {vec // per_access}; ++j)"
    return (
        f"layout(buffer_reference, std430, buffer_reference_align = 16) restrict buffer {ref} "
        f"{{ uvec4 v[{vec // per_access}]; }};\n"
        f"void {role}_loadv(uint64_t a, out {compute} v[VEC]) {{ {loop} {{ uvec4 w = {ref}(a).v[j]; "
        f"for (int e = 0; e < {per_access}; ++e) {{ {get} v[{per_access} * j + e] = {decode}; }} }} }}\n"
        f"void {role}_storev(uint64_t a, {compute} v[VEC]) {{ {loop} {{ uvec4 w = uvec4(0u); "
        f"for (int e = 0; e < {per_access}; ++e) {{ {compute} x = v[{per_access} * j + e]; {put} }} "
        f"{ref}(a).v[j] = w; }} }}\n")


def role_code(role, dt, vec):
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
        # The compute value of storage bits (a uint, uvec2 for 8-byte types).
        f"{compute} {role}_from_bits({'uvec2' if REF[storage][1] == 8 else 'uint'} b) {{ return {BITS[dt][0]}; }}\n"
        f"void {role}_store(uint64_t a, {compute} v) {{ {store} }}\n"
    ) + vector_code(role, dt, vec)


def roles_prelude(dts):
    """The wrapper prelude for roles -> dtypes, and the device features it needs."""
    needs = sorted({f for d in dts.values() for f in DTYPES[d][2]})
    prelude = "#define USES_F64 1\n" if "float64" in needs else ""
    vec = vector_elements([REF[DTYPES[d][0]][1] for d in dts.values()])
    prelude += f'#include "common/base.glsl"\n#define VEC {vec}\n'
    prelude += "".join(role_code(role, d, vec) for role, d in dts.items())
    return prelude, needs


def expand(kernel, features=()):
    """Yield (variant name, wrapper prelude, required device features, fixed
    workgroup size: the WORKGROUP define, 0 for the device's default), leaving
    out the variants whose `requires_for` names a compiler feature not in
    `features`."""
    name = kernel["name"]
    if "widths" in kernel:
        for w in kernel["widths"]:
            needs = {1: ["storage8"], 2: ["storage16"]}.get(w, [])
            prelude = f'#define WIDTH {w}\n#define VEC {vector_elements([w])}\n#include "common/base.glsl"\n'
            yield f"{name}.{w}", prelude, needs, 0
        return
    roles = kernel.get("dtypes")
    if "ops" in kernel:
        # One variant per op and dtype; every role takes the dtype except the
        # roles pinned in `fixed` (a comparison's OUT is always b8).
        fixed = kernel.get("fixed", {})
        defines = kernel.get("defines", {})
        for op, spec in kernel["ops"].items():
            for dt in dtype_set(spec):
                extra = kernel.get("requires_for", {}).get(dt, {})
                if extra.get("compiler", "") not in ("", *features):
                    continue
                prelude, needs = roles_prelude({role: fixed.get(role, dt) for role in roles})
                needs = needs + extra.get("device", [])
                macros = "".join(f"#define {k} {v}\n" for k, v in defines.get(op, {}).items())
                workgroup = defines.get(op, {}).get("WORKGROUP", 0)
                yield f"{name}.{op}.{dt}", f"#define OP_{op} 1\n" + macros + prelude, needs, workgroup
        return
    if not roles:
        yield name, '#include "common/base.glsl"\n', [], 0
        return
    for combo in itertools.product(DTYPES, repeat=len(roles)):
        if len(set(combo)) < len(combo):
            continue
        prelude, needs = roles_prelude(dict(zip(roles, combo)))
        yield f"{name}." + ".".join(combo), prelude, needs, 0


def glslc_ok(glslc, source, work):
    path = Path(work) / "probe.comp"
    path.write_text(source)
    r = subprocess.run([glslc, "--target-env=vulkan1.3", "-o", os.devnull, str(path)],
                       capture_output=True)
    return r.returncode == 0


INCLUDE = re.compile(r'^\s*#include\s+"([^"]+)"', re.M)


@functools.cache
def source_text(name):
    return (HERE / name).read_text()


def included(text, found=None):
    """The files (relative to shaders/) `text` includes, directly or through
    other includes, sorted."""
    found = set() if found is None else found
    for name in INCLUDE.findall(text):
        if name not in found:
            found.add(name)
            included(source_text(name), found)
    return sorted(found)


def wrapper_text(source, prelude):
    return "#version 460\n" + prelude + f'#include "{source}"\n'


def compile_variant(glslc, work, name, source, prelude, target_env):
    text = wrapper_text(source, prelude)
    deps = "".join(source_text(p) for p in included(text))
    digest = hashlib.sha256((target_env + text + deps).encode()).hexdigest()[:16]
    spv = Path(work) / f"{name}.{digest}.spv"
    if not spv.exists():
        wrapper = Path(work) / f"{name}.comp"
        wrapper.write_text(text)
        cmd = [glslc, f"--target-env={target_env}", "-O", "-I", str(HERE), "-o", str(spv) + ".tmp", str(wrapper)]
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
        for name, prelude, needs, workgroup in expand(kernel, features):
            needs = sorted(set(needs) | set(kernel.get("requires_device", [])))
            jobs.append((name, kernel["source"], prelude, needs, workgroup,
                         kernel.get("target_env", "vulkan1.2")))

    with cf.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        blobs = list(pool.map(lambda j: compile_variant(args.glslc, args.work, j[0], j[1], j[2], j[5]), jobs))

    out = ["// Generated by shaders/compile.py. Do not edit.",
           '#include "runtime/embedded_kernels.h"', "namespace torchvulkan::rt {"]
    for i, blob in enumerate(blobs):
        words = [int.from_bytes(blob[k:k + 4], "little") for k in range(0, len(blob), 4)]
        out.append(f"static const uint32_t k{i}[] = {{" + ",".join(map(str, words)) + "};")
    out.append("const EmbeddedKernel kEmbeddedKernels[] = {")
    for i, (name, source, prelude, needs, workgroup, _) in enumerate(jobs):
        flags = " | ".join(f"Feature::{n}" for n in needs) or "0"
        faults = "true" if "common/fault.glsl" in included(wrapper_text(source, prelude)) else "false"
        out.append(f'  {{"{name}", k{i}, sizeof(k{i}) / 4, {flags}, {workgroup}, {faults}}},')
    out.append("};")
    out.append(f"const size_t kNumEmbeddedKernels = {len(jobs)};")
    out.append("const char* const kCompilerFeatures[] = {" + "".join(f'"{f}", ' for f in features) + "nullptr};")
    out.append("}  // namespace torchvulkan::rt")
    Path(args.out).write_text("\n".join(out) + "\n")
    print(f"compile.py: {len(jobs)} kernels, compiler features: {features or 'none'}")


if __name__ == "__main__":
    sys.exit(main())
