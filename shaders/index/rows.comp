// out[r, :] = table[index[r], :] for a contiguous table whose rows are
// contiguous (index_select on dim 0, and so embedding): a row gather. Rows move
// in WIDTH-byte units (16 where the row size and both base addresses allow),
// each invocation issuing its kSteps loads before any store so that several
// are in flight, with one 32-bit division per unit instead of the general
// gather's per-element 64-bit index arithmetic: bandwidth-bound, not ALU-bound.
// Indices out of range give zero rows and are reported (common/fault.glsl);
// the kernel never reads outside the table.
#include "index/bits.glsl"

#if WIDTH == 16
#define UNIT uvec4
#define UNIT_ZERO uvec4(0u)
#elif WIDTH == 8
#define UNIT uvec2
#define UNIT_ZERO uvec2(0u)
#elif WIDTH == 4
#define UNIT uint
#define UNIT_ZERO 0u
#elif WIDTH == 2
#define UNIT uint16_t
#define UNIT_ZERO uint16_t(0)
#else
#define UNIT uint8_t
#define UNIT_ZERO uint8_t(0)
#endif
layout(buffer_reference, std430, buffer_reference_align = WIDTH) readonly buffer Units { UNIT v[]; };
layout(buffer_reference, std430, buffer_reference_align = WIDTH) writeonly buffer OutUnits { UNIT v[]; };

layout(push_constant) uniform Args {
  uint64_t table;
  uint64_t result;
  uint64_t index;
  int64_t table_rows;    // size of dim 0, for the range check
  int64_t index_stride;  // in indices
  uint rows;             // indices; rows * row_units < 2^31 (the host checks)
  uint row_units;        // WIDTH-byte units per row
  uint index_bytes;      // 4 (int32) or 8 (int64)
} args;

const uint kSteps = 4;

int64_t index_at(uint r) {
  uint64_t at = args.index + uint64_t(int64_t(r) * args.index_stride) * args.index_bytes;
  return args.index_bytes == 8 ? RefI64(at).v : int64_t(RefI32(at).v);
}

void main() {
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint first = group * gl_WorkGroupSize.x * kSteps + gl_LocalInvocationID.x;
  uint total = args.rows * args.row_units;
  UNIT v[kSteps];
  for (uint k = 0; k < kSteps; ++k) {
    uint u = first + k * gl_WorkGroupSize.x;
    v[k] = UNIT_ZERO;
    if (u >= total) continue;
    uint r = u / args.row_units;
    int64_t row = check_index(index_at(r), args.table_rows);
    if (row >= 0) v[k] = Units(args.table + uint64_t(row) * args.row_units * WIDTH).v[u - r * args.row_units];
  }
  for (uint k = 0; k < kSteps; ++k) {
    uint u = first + k * gl_WorkGroupSize.x;
    if (u < total) OutUnits(args.result).v[u] = v[k];
  }
}
