// linalg_lu_factor_ex: A = P L U in place, one workgroup per matrix of a
// batch [B, m, n] (any strides), as LAPACK's getf2 does it column by column:
// for each column j < min(m, n)
//   - the pivot: the row i >= j with the largest |a_ij| (the first of equals;
//     NaNs never win), or j itself without pivoting;
//   - pivots[j] = that row + 1; if its value is nonzero, rows j and the
//     pivot's swap and the column below the diagonal is divided by it, else
//     info = j + 1 (the first zero pivot) and the column stays;
//   - the trailing block loses the outer product of that column and row j.
// Four barriers a column; the invocations share each step's elements.
#include "common/sync.glsl"
#ifdef X_DT_F64
#define WG_T double
#endif
#include "common/workgroup.glsl"

layout(push_constant) uniform Args {
  uint64_t lu;       // [B, m, n]
  uint64_t pivots;   // int32 [B, min(m, n)], contiguous rows
  uint64_t info;     // int32 [B]
  uint64_t batches;
  int64_t m, n;
  int64_t batch_stride, row_stride, col_stride;  // of lu, elements
  int64_t pivots_stride;                         // elements between batches
  uint pivot;
} args;

shared int best_row[kWorkgroupSize];

uint64_t base;

uint64_t at(int64_t i, int64_t j) {
  return base + uint64_t(i * args.row_stride + j * args.col_stride) * X_BYTES;
}

// The row at or below j holding column j's largest magnitude.
int64_t pivot_row(int64_t j) {
  uint t = gl_LocalInvocationID.x;
  X_T best = X_T(-1);
  int64_t row = -1;
  for (int64_t i = j + int64_t(t); i < args.m; i += int64_t(kWorkgroupSize)) {
    X_T v = abs(X_load(at(i, j)));
    if (v > best) {
      best = v;
      row = i;
    }
  }
  sync_workgroup();  // the scratch may still be read by the previous column
  workgroup_scratch[t] = WG_T(best);
  best_row[t] = int(row);
  sync_workgroup();
  for (uint s = kWorkgroupSize / 2; s > 0; s >>= 1) {
    if (t < s) {
      WG_T v = workgroup_scratch[t + s];
      int r = best_row[t + s];
      if (r >= 0 && (v > workgroup_scratch[t] || (v == workgroup_scratch[t] && (best_row[t] < 0 || r < best_row[t])))) {
        workgroup_scratch[t] = v;
        best_row[t] = r;
      }
    }
    sync_workgroup();
  }
  return best_row[0] >= 0 ? int64_t(best_row[0]) : j;
}

void main() {
  uint64_t b = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (b >= args.batches) return;
  base = args.lu + b * uint64_t(args.batch_stride) * X_BYTES;
  int64_t t = int64_t(gl_LocalInvocationID.x), W = int64_t(kWorkgroupSize);
  int64_t m = args.m, n = args.n, k = min(m, n);
  int info = 0;
  for (int64_t j = 0; j < k; ++j) {
    int64_t p = args.pivot != 0u ? pivot_row(j) : j;
    X_T d = X_load(at(p, j));
    if (t == 0) RefI32(args.pivots + (b * uint64_t(args.pivots_stride) + uint64_t(j)) * 4u).v = int(p + 1);
    // Every invocation holds the pivot before any swaps it away: without
    // this barrier an invocation late to read a_pj read a_jj instead, and
    // divided its rows by it (lavapipe runs a workgroup's subgroups one after
    // another between barriers: wrong factors from 10 rows up).
    sync_workgroup();
    if (d != X_T(0)) {
      if (p != j) {
        for (int64_t c = t; c < n; c += W) {
          X_T a = X_load(at(j, c));
          X_store(at(j, c), X_load(at(p, c)));
          X_store(at(p, c), a);
        }
      }
      sync_workgroup();
      for (int64_t i = j + 1 + t; i < m; i += W) X_store(at(i, j), X_load(at(i, j)) / d);
    } else if (info == 0) {
      info = int(j + 1);
    }
    sync_workgroup();
    int64_t rows = m - j - 1, cols = n - j - 1;
    for (int64_t e = t; e < rows * cols; e += W) {
      int64_t i = j + 1 + e / cols, c = j + 1 + e % cols;
      X_store(at(i, c), X_load(at(i, c)) - X_load(at(i, j)) * X_load(at(j, c)));
    }
    sync_workgroup();
  }
  if (t == 0) RefI32(args.info + b * 4u).v = info;
}
