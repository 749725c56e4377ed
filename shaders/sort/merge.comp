// One pass of a merge sort: rows of n (key, position) pairs whose runs of
// 2^log_run are sorted become rows whose runs of twice that are. Each pair's
// place in the merged run is its rank in its own run plus the number of pairs
// of the other run that sort before it (a binary search there); pairs are
// all distinct, so the places are too, and ties keep their positions' order.
#include "sort/common.glsl"

layout(push_constant) uniform MergeArgs {
  uint64_t keys_in, positions_in, keys_out, positions_out;
  uint64_t rows, n;
  uint log_run;
} ma;

void main() {
  uint64_t t = global_index();
  if (t >= ma.rows * ma.n) return;
  uint64_t row = t / ma.n, i = t - row * ma.n, start = row * ma.n;
  uint64_t run = 1ul << ma.log_run;
  uint64_t base = (i >> (ma.log_run + 1)) << (ma.log_run + 1);
  bool first = i - base < run;
  uint64_t own = first ? base : base + run;
  uint64_t lo = first ? min(base + run, ma.n) : base;
  uint64_t end = first ? min(base + 2 * run, ma.n) : base + run;
  uint64_t other = lo;
  KEY key = KeyRef(ma.keys_in + t * WIDTH).v;
  uint position = RefU32(ma.positions_in + t * 4).v;
  while (lo < end) {
    uint64_t mid = (lo + end) >> 1;
    uint64_t at = start + mid;
    if (before(KeyRef(ma.keys_in + at * WIDTH).v, RefU32(ma.positions_in + at * 4).v, key, position)) {
      lo = mid + 1;
    } else {
      end = mid;
    }
  }
  uint64_t place = start + base + (i - own) + (lo - other);
  KeyRef(ma.keys_out + place * WIDTH).v = key;
  RefU32(ma.positions_out + place * 4).v = position;
}
