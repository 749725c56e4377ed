// searchsorted over contiguous operands (output, values), as the CPU's
// lower/upper bound: out[i] = the first position p of i's row of boundaries
// with !(b[p] < v) (left) or !(b[p] <= v) (right), so NaN values go past the
// end. The output is int32 or int64 (operand 0's element size).
//   scalar[0]: boundaries address, scalar[1]: sorter address (int64) or 0,
//   scalar[2]: boundaries per row, scalar[3]: values per row (0: one row of
//   boundaries for all values), bit 63 set for right.
#include "common/strided.glsl"

void element(uint64_t i) {
  X_T v = X_load(operand_address(1, i));
  uint64_t boundaries = args.scalar[0], sorter = args.scalar[1];
  int64_t length = int64_t(args.scalar[2]);
  uint64_t per_row = args.scalar[3] & 0x7FFFFFFFFFFFFFFFul;
  bool right = (args.scalar[3] >> 63) != 0ul;
  int64_t start = per_row == 0ul ? 0 : int64_t(i / per_row) * length;
  int64_t lo = 0, hi = length;
  while (lo < hi) {
    int64_t mid = lo + ((hi - lo) >> 1);
    int64_t at = sorter != 0ul ? RefI64(sorter + uint64_t(start + mid) * 8).v : mid;
    X_T b = X_load(boundaries + uint64_t(start + at) * X_BYTES);
    if (right ? !(b > v) : !(b >= v)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  uint64_t result = operand_address(0, i);
  if ((args.flags & 15u) == 2u) {
    RefI32(result).v = int(lo);
  } else {
    RefI64(result).v = lo;
  }
}

void main() { FOR_EACH_ELEMENT(element) }
