// cat of contiguous inputs of the output's dtype in one launch, for
// bandwidth: the output is [outer, out_row_units] and input p fills columns
// [col, col + row_units) of every row. Data moves in WIDTH-byte units (16
// where every size, offset and address allows), kSteps loads in flight per
// invocation before their stores, with 32-bit index arithmetic; the inputs'
// table lives in the parameter block.
#if WIDTH == 16
#define UNIT uvec4
#elif WIDTH == 8
#define UNIT uvec2
#elif WIDTH == 4
#define UNIT uint
#elif WIDTH == 2
#define UNIT uint16_t
#else
#define UNIT uint8_t
#endif
layout(buffer_reference, std430, buffer_reference_align = WIDTH) readonly buffer Units { UNIT v[]; };
layout(buffer_reference, std430, buffer_reference_align = WIDTH) writeonly buffer OutUnits { UNIT v[]; };

struct Part {
  uint64_t src;
  uint start;      // first unit of this input in the launch's unit order
  uint row_units;  // units per row of this input
  uint col;        // its first column in an output row, in units
  uint pad;
};
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Parts { Part p[]; };

layout(push_constant) uniform Args {
  uint64_t parts;   // the table (the parameter block)
  uint64_t result;
  uint count;       // inputs
  uint total;       // units, < 2^31
  uint out_row_units;
} args;

const uint kSteps = 4;

void main() {
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint first = group * gl_WorkGroupSize.x * kSteps + gl_LocalInvocationID.x;
  Parts parts = Parts(args.parts);
  UNIT v[kSteps];
  uint dst[kSteps];
  for (uint k = 0; k < kSteps; ++k) {
    uint u = first + k * gl_WorkGroupSize.x;
    dst[k] = ~0u;
    if (u >= args.total) continue;
    uint i = 0;
    while (i + 1 < args.count && u >= parts.p[i + 1].start) ++i;
    Part part = parts.p[i];
    uint local = u - part.start;
    uint r = local / part.row_units;
    uint c = local - r * part.row_units;
    v[k] = Units(part.src).v[local];
    dst[k] = r * args.out_row_units + part.col + c;
  }
  for (uint k = 0; k < kSteps; ++k) {
    if (dst[k] != ~0u) OutUnits(args.result).v[dst[k]] = v[k];
  }
}
