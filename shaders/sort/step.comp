// Up to three consecutive compare-exchange steps of a bitonic merge across
// global memory, for the distances a tile cannot hold. Rows of n (key,
// position) pairs are padded (in thought) to 2^log_padded; padding is larger
// than every element and never moves, so it is neither read nor written.
// The steps are those of bit positions top, top - 1, .. top - levels + 1:
// step l pairs i with i ^ mask_l, mask_l = 1 << (top - l), except a stage's
// first step (mirror != 0), whose mask 2^(top + 1) - 1 pairs each element
// with its mirror image in the block. An invocation holds the 2^levels
// elements these masks connect, in registers.
#include "sort/common.glsl"

layout(push_constant) uniform StepArgs {
  uint64_t keys, positions;
  uint64_t rows, n;
  uint log_padded, top, levels, mirror;
} sa;

const uint kMaxLevels = 3;

void main() {
  uint64_t t = global_index();
  uint per_row_log = sa.log_padded - sa.levels;
  uint64_t row = t >> per_row_log;
  if (row >= sa.rows) return;
  uint64_t q = t & ((1ul << per_row_log) - 1ul);
  uint low = sa.top + 1 - sa.levels;  // the lowest of the masks' bit positions
  uint64_t base = ((q >> low) << (sa.top + 1)) | (q & ((1ul << low) - 1ul));
  uint count = 1u << sa.levels;
  uint64_t at[1 << kMaxLevels];
  KEY key[1 << kMaxLevels];
  uint pos[1 << kMaxLevels];
  for (uint s = 0; s < count; ++s) {
    uint64_t i = base;
    for (uint l = 0; l < sa.levels; ++l) {
      if ((s & (1u << l)) == 0u) continue;
      i ^= l == 0u && sa.mirror != 0u ? (2ul << sa.top) - 1ul : 1ul << (sa.top - l);
    }
    at[s] = i;
    key[s] = kPadKey;
    pos[s] = kPadPosition;
    if (i < sa.n) {
      uint64_t e = row * sa.n + i;
      key[s] = KeyRef(sa.keys + e * WIDTH).v;
      pos[s] = RefU32(sa.positions + e * 4).v;
    }
  }
  for (uint l = 0; l < sa.levels; ++l) {
    for (uint s = 0; s < count; ++s) {
      uint partner = s | (1u << l);
      if (partner == s) continue;
      // The smaller pair goes to the lower position.
      uint lo = at[s] < at[partner] ? s : partner, hi = lo == s ? partner : s;
      if (before(key[hi], pos[hi], key[lo], pos[lo])) {
        KEY k = key[lo]; key[lo] = key[hi]; key[hi] = k;
        uint p = pos[lo]; pos[lo] = pos[hi]; pos[hi] = p;
      }
    }
  }
  for (uint s = 0; s < count; ++s) {
    if (at[s] >= sa.n) continue;
    uint64_t e = row * sa.n + at[s];
    KeyRef(sa.keys + e * WIDTH).v = key[s];
    RefU32(sa.positions + e * 4).v = pos[s];
  }
}
