// Triangular solves in place in X (which holds B), one workgroup per
// right-hand column of a batch; each step's updates are shared by the
// invocations, two barriers a row.
//   OP_lu: linalg_lu_solve's core, X = A^-1 B (or A^-T B, `transposed`)
//     from A's LU factors in `lu`, as LAPACK's getrs:
//     A X = B:   X = P^T B (the row swaps in order), then L y = X (unit
//                lower, forward), then U x = y (back substitution)
//     A^T X = B: U^T y = B (forward), L^T z = y (unit upper, backward), then
//                X = P z (the swaps in reverse order)
//   OP_triangular: linalg_solve_triangular's, X = T^-1 B for T the `lower`
//     or upper triangle of `lu` (its transpose when `transposed`), with
//     ones on the diagonal when `unit`.
#include "common/sync.glsl"
layout(push_constant) uniform Args {
  uint64_t lu;      // [B, n, n]
  uint64_t pivots;  // int32 [B, n]
  uint64_t x;       // [B, n, nrhs]
  uint64_t batches;
  int64_t n, nrhs;
  int64_t lu_batch, lu_row, lu_col;  // strides, elements
  int64_t pivots_stride;
  int64_t x_batch, x_row, x_col;
  uint transposed;
  uint lower, unit;  // OP_triangular
} args;

uint64_t lu_base, x_base;
int64_t column;

X_T lu(int64_t i, int64_t j) { return X_load(lu_base + uint64_t(i * args.lu_row + j * args.lu_col) * X_BYTES); }
uint64_t x_at(int64_t i) { return x_base + uint64_t(i * args.x_row + column * args.x_col) * X_BYTES; }

// Row swaps j and pivots[j] - 1 for j in order, or in reverse: one invocation.
void permute(uint64_t pivots, bool reverse) {
  if (gl_LocalInvocationID.x == 0) {
    for (int64_t s = 0; s < args.n; ++s) {
      int64_t j = reverse ? args.n - 1 - s : s;
      int64_t p = int64_t(RefI32(pivots + uint64_t(j) * 4u).v) - 1;
      if (p != j) {
        X_T a = X_load(x_at(j));
        X_store(x_at(j), X_load(x_at(p)));
        X_store(x_at(p), a);
      }
    }
  }
  sync_workgroup();
}

// Substitution through a triangular factor T, one row at a time: row j is
// final (divided by T[j][j] unless `unit`), then subtracted, times the
// factor's column below (`lower`) or above it, from the rows still to come.
// T[i][j] is lu(i, j), or lu(j, i) when `swap`.
void substitute(bool lower, bool unit, bool swap) {
  int64_t t = int64_t(gl_LocalInvocationID.x), W = int64_t(gl_WorkGroupSize.x), n = args.n;
  for (int64_t s = 0; s < n; ++s) {
    int64_t j = lower ? s : n - 1 - s;
    if (!unit && t == 0) X_store(x_at(j), X_load(x_at(j)) / lu(j, j));
    sync_workgroup();
    X_T xj = X_load(x_at(j));
    int64_t first = lower ? j + 1 : 0, last = lower ? n : j;
    for (int64_t i = first + t; i < last; i += W) {
      X_T factor = swap ? lu(j, i) : lu(i, j);
      X_store(x_at(i), X_load(x_at(i)) - factor * xj);
    }
    sync_workgroup();
  }
}

void main() {
  uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (group >= args.batches * uint64_t(args.nrhs)) return;
  uint64_t b = group / uint64_t(args.nrhs);
  column = int64_t(group % uint64_t(args.nrhs));
  lu_base = args.lu + b * uint64_t(args.lu_batch) * X_BYTES;
  x_base = args.x + b * uint64_t(args.x_batch) * X_BYTES;
#ifdef OP_triangular
  substitute(args.lower != 0u, args.unit != 0u, args.transposed != 0u);
#else
  uint64_t pivots = args.pivots + b * uint64_t(args.pivots_stride) * 4u;
  if (args.transposed == 0u) {
    permute(pivots, false);
    substitute(true, true, false);
    substitute(false, false, false);
  } else {
    substitute(true, false, true);
    substitute(false, true, true);
    permute(pivots, true);
  }
#endif
}
