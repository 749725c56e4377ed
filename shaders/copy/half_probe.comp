// Counts the inputs on which the driver's float -> half conversion differs
// from round-to-nearest-even (f32_to_f16_bits_exact). Invocation i takes the
// positive half h = i / 4 (0x7C00 stands for 65536, where rounding
// overflows to infinity) and the float midway between h and h + 1, the
// floats just below and above that midpoint, and h itself, each with both
// signs: every boundary where the rounded result changes, so a monotonic
// conversion that agrees on all of them agrees everywhere. Two more
// invocations take infinity and the largest float.
layout(push_constant) uniform Args { uint64_t mismatches; } args;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Counter { uint v; };

float half_value(uint h) { return h == 0x7C00u ? 65536.0 : unpackHalf2x16(h).x; }

void main() {
  uint i = uint(global_index());
  const uint kBoundaries = 4u * 0x7C00u;
  if (i >= kBoundaries + 2u) return;
  uint h = i / 4u, which = i % 4u;
  float mid = 0.5 * (half_value(h) + half_value(h + 1u));  // exact: 12 significant bits
  float x = which == 3u ? half_value(h) : uintBitsToFloat(floatBitsToUint(mid) + which - 1u);
  if (i >= kBoundaries) x = uintBitsToFloat(i == kBoundaries ? 0x7F800000u : 0x7F7FFFFFu);
  uint wrong = 0u;
  for (int s = 0; s < 2; ++s) {
    float v = s == 0 ? x : -x;
    if (f32_to_f16_bits(v) != f32_to_f16_bits_exact(v)) ++wrong;
  }
  if (wrong != 0u) atomicAdd(Counter(args.mismatches).v, wrong);
}
