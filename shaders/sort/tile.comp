// Bitonic sorting inside shared memory. Each row of `n_in` (key, position)
// pairs is cut into segments of `segment` elements (a power of two up to
// kTile); a workgroup loads kTile / segment consecutive segments, padding
// past the row's end, and sorts each segment. It writes the first `keep` elements of each segment (all that are real)
// to row positions segment_index * keep of the output rows of n_out pairs:
// keep == segment sorts in place, a smaller keep leaves each segment's
// smallest elements (top-k). positions_in == 0: positions are the row
// positions (the first pass over the keys).
#include "sort/common.glsl"

layout(push_constant) uniform TileArgs {
  uint64_t keys_in, positions_in, keys_out, positions_out;
  uint64_t rows, n_in, n_out;
  uint segment, keep;
} ta;

layout(constant_id = 0) const uint kWorkgroupSize = 256;
shared KEY skey[kTile];
shared uint spos[kTile];

void compare_swap(uint lo, uint hi) {
  KEY a = skey[lo], b = skey[hi];
  uint pa = spos[lo], pb = spos[hi];
  if (before(b, pb, a, pa)) {
    skey[lo] = b; skey[hi] = a;
    spos[lo] = pb; spos[hi] = pa;
  }
}

const uint kRun = 8;

// Pairs (lo, lo + j) with bit j of lo clear, for the distances j from
// block / 2 down to kRun, through shared memory.
void half_cleaners(uint block) {
  for (uint j = block / 2; j >= kRun; j >>= 1) {
    for (uint p = gl_LocalInvocationID.x; p < kTile / 2; p += kWorkgroupSize) {
      uint lo = ((p & ~(j - 1)) << 1) | (p & (j - 1));
      compare_swap(lo, lo + j);
    }
    barrier();
  }
}

// The steps of distance < kRun stay inside aligned runs of kRun elements, so
// each invocation does them on its runs in registers, without barriers:
// whole stages of blocks 2 .. `stages` (sort), or else the half-cleaners
// of distance kRun / 2 .. 1 that end a stage.
void run_steps(uint stages) {
  for (uint r = gl_LocalInvocationID.x; r < kTile / kRun; r += kWorkgroupSize) {
    KEY k[kRun];
    uint p[kRun];
    for (uint e = 0; e < kRun; ++e) {
      k[e] = skey[r * kRun + e];
      p[e] = spos[r * kRun + e];
    }
    for (uint block = stages == 0u ? kRun : 2; block <= kRun; block <<= 1) {
      if (stages != 0u && block > stages) break;
      for (uint j = block / 2; j > 0; j >>= 1) {
        for (uint lo = 0; lo < kRun; ++lo) {
          if ((lo & j) != 0u) continue;
          // A stage's first step pairs mirror images within the block.
          uint hi = j == block / 2 && stages != 0u ? lo ^ (block - 1) : lo + j;
          if (before(k[hi], p[hi], k[lo], p[lo])) {
            KEY tk = k[lo]; k[lo] = k[hi]; k[hi] = tk;
            uint tp = p[lo]; p[lo] = p[hi]; p[hi] = tp;
          }
        }
      }
    }
    for (uint e = 0; e < kRun; ++e) {
      skey[r * kRun + e] = k[e];
      spos[r * kRun + e] = p[e];
    }
  }
  barrier();
}

void main() {
  uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint per_group = kTile / ta.segment;
  uint64_t segments_per_row = (ta.n_in + ta.segment - 1) / ta.segment;
  for (uint e = gl_LocalInvocationID.x; e < kTile; e += kWorkgroupSize) {
    uint64_t g = group * per_group + e / ta.segment;
    uint64_t row = g / segments_per_row;
    uint64_t pos = (g % segments_per_row) * ta.segment + e % ta.segment;
    KEY key = kPadKey;
    uint position = kPadPosition;
    if (row < ta.rows && pos < ta.n_in) {
      uint64_t at = row * ta.n_in + pos;
      key = KeyRef(ta.keys_in + at * WIDTH).v;
      position = ta.positions_in != 0ul ? RefU32(ta.positions_in + at * 4).v : uint(pos);
    }
    skey[e] = key;
    spos[e] = position;
  }
  barrier();
  // Stage `block` leaves every block sorted ascending: first each pair
  // mirrored about the block's middle, then the half-cleaners.
  run_steps(min(kRun, ta.segment));
  for (uint block = 2 * kRun; block <= ta.segment; block <<= 1) {
    uint half_block = block / 2;
    for (uint p = gl_LocalInvocationID.x; p < kTile / 2; p += kWorkgroupSize) {
      uint lo = ((p & ~(half_block - 1)) << 1) | (p & (half_block - 1));
      compare_swap(lo, lo ^ (block - 1));
    }
    barrier();
    half_cleaners(half_block);
    run_steps(0u);
  }
  for (uint e = gl_LocalInvocationID.x; e < kTile; e += kWorkgroupSize) {
    uint rank = e % ta.segment;
    if (rank >= ta.keep || spos[e] == kPadPosition) continue;
    uint64_t g = group * per_group + e / ta.segment;
    uint64_t row = g / segments_per_row;
    uint64_t at = row * ta.n_out + (g % segments_per_row) * ta.keep + rank;
    KeyRef(ta.keys_out + at * WIDTH).v = skey[e];
    RefU32(ta.positions_out + at * 4).v = spos[e];
  }
}
