// Shared by every kernel: extensions, workgroup size, typed pointers and
// PyTorch's scalar conversion rules.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// The workgroup size comes from the device's limits (specialization constant 0).
layout(local_size_x_id = 0) in;

// Tensors are raw device addresses; one pointer type per storage type.
layout(buffer_reference, std430, buffer_reference_align = 1) buffer RefU8 { uint8_t v; };
layout(buffer_reference, std430, buffer_reference_align = 1) buffer RefI8 { int8_t v; };
layout(buffer_reference, std430, buffer_reference_align = 2) buffer RefU16 { uint16_t v; };
layout(buffer_reference, std430, buffer_reference_align = 2) buffer RefI16 { int16_t v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer RefI32 { int v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer RefU32 { uint v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer RefF32 { float v; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer RefI64 { int64_t v; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer RefU64 { uint64_t v; };
#ifdef USES_F64
layout(buffer_reference, std430, buffer_reference_align = 8) buffer RefF64 { double v; };
#endif

// Linear invocation index over a 2-D grid of workgroups (one grid dimension
// alone is capped at 65535 workgroups on many devices).
uint64_t global_index() {
  uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  return group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
}

// a / b for a >= 0 and b > 0, in 32 bits where both fit (every launch so
// far): integer division is a software routine on NVIDIA, several times
// longer in 64 bits, and kernels that split their invocation's index this
// way do it before their first loads (g^T @ x's workgroups spend 3.6 of
// their 8.8 us until those arrive: gemm_coop.comp's header).
int64_t quotient(int64_t a, int64_t b) {
  if ((a | b) < 0x80000000l) return int64_t(uint(a) / uint(b));
  return a / b;
}

// Whether the driver's float -> half conversion (packHalf2x16) rounds to
// nearest even, denormals included, on every input: the host tests it once
// per device (csrc/runtime/half_probe.cpp) and sets this constant. The
// written-out conversion below costs ~15 integer operations a value: on the
// H200, float16 gelu ran 27% faster and add 5% faster without it.
layout(constant_id = 1) const bool kNativeHalf = false;

// float -> IEEE half bits, round to nearest even, written out because
// packHalf2x16 leaves the rounding mode to the driver; NaN becomes 0x7E00 as
// in c10::Half.
uint f32_to_f16_bits_exact(float f) {
  uint x = floatBitsToUint(f);
  uint sign = (x >> 16) & 0x8000u;
  uint ax = x & 0x7FFFFFFFu;
  if (ax >= 0x7F800000u) return sign | (ax > 0x7F800000u ? 0x7E00u : 0x7C00u);
  if (ax >= 0x477FF000u) return sign | 0x7C00u;  // rounds past 65504
  if (ax < 0x38800000u) {                        // half subnormal (or zero)
    return sign | uint(roundEven(uintBitsToFloat(ax) * 16777216.0));
  }
  uint r = ax - 0x38000000u;  // rebias the exponent from 127 to 15
  r += 0xFFFu + ((r >> 13) & 1u);
  return sign | (r >> 13);
}

uint f32_to_f16_bits(float f) {
  if (!kNativeHalf) return f32_to_f16_bits_exact(f);
  return isnan(f) ? (floatBitsToUint(f) >> 16) & 0x8000u | 0x7E00u : packHalf2x16(vec2(f, 0.0));
}

// float -> bfloat16 bits, round to nearest even; NaN becomes 0x7FC0 as in c10::BFloat16.
uint f32_to_bf16_bits(float f) {
  if (isnan(f)) return 0x7FC0u;
  uint u = floatBitsToUint(f);
  return (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
}

// Conversions between compute types with C++ static_cast semantics, as
// c10::convert does: to bool is "!= 0", float to integer goes through int64.
bool to_bool(bool v) { return v; }
bool to_bool(int v) { return v != 0; }
bool to_bool(int64_t v) { return v != 0; }
bool to_bool(float v) { return v != 0.0; }
int to_int(bool v) { return v ? 1 : 0; }
int to_int(int v) { return v; }
int to_int(int64_t v) { return int(v); }
int to_int(float v) { return int(int64_t(v)); }
int64_t to_int64_t(bool v) { return v ? 1 : 0; }
int64_t to_int64_t(int v) { return int64_t(v); }
int64_t to_int64_t(int64_t v) { return v; }
int64_t to_int64_t(float v) { return int64_t(v); }
float to_float(bool v) { return v ? 1.0 : 0.0; }
float to_float(int v) { return float(v); }
float to_float(int64_t v) { return float(v); }
float to_float(float v) { return v; }
#ifdef USES_F64
bool to_bool(double v) { return v != 0.0LF; }
int to_int(double v) { return int(int64_t(v)); }
int64_t to_int64_t(double v) { return int64_t(v); }
float to_float(double v) { return float(v); }
double to_double(bool v) { return v ? 1.0LF : 0.0LF; }
double to_double(int v) { return double(v); }
double to_double(int64_t v) { return double(v); }
// float32 subnormals from the bits: NVIDIA flushes them in the conversion
// (it offers no shaderDenormPreserveFloat32), the CPU keeps them.
double to_double(float v) {
  uint bits = floatBitsToUint(v);
  if ((bits & 0x7F800000u) != 0u || (bits & 0x7FFFFFu) == 0u) return double(v);
  double m = double(int(bits & 0x7FFFFFu)) * packDouble2x32(uvec2(0u, 874u << 20));  // 2^-149
  return (bits >> 31) != 0u ? -m : m;
}
double to_double(double v) { return v; }
#endif
