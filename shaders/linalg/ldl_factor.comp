// linalg_ldl_factor_ex: A = P L D L^T P^T for symmetric A (its lower
// triangle), one workgroup per matrix of a batch [B, n, n] (any strides), as
// LAPACK's sytf2 (lower) does it with Bunch-Kaufman pivoting, so that LD
// and the pivots are LAPACK's (the CPU's). At step k, with alpha =
// (1 + sqrt(17)) / 8, colmax the largest |a_ik| below the diagonal (row
// imax, the first of equals) and rowmax the largest off-diagonal |a| in row
// and column imax of the trailing block:
//   - |a_kk| >= alpha colmax, or >= alpha colmax^2 / rowmax: a 1x1 pivot a_kk;
//   - else |a_imax,imax| >= alpha rowmax: a 1x1 pivot, imax swapped to k;
//   - else a 2x2 pivot, imax swapped to k + 1;
//   - a zero column (colmax = a_kk = 0) is no pivot: info = k + 1 (the first).
// Then the trailing block loses the pivot's rank-1 or rank-2 update and the
// pivot's columns become L's (sytf2's formulas, in its order). pivots[k] is
// the swapped row + 1, negated for both rows of a 2x2 pivot. Invocation 0
// chooses each pivot (a serial scan, as idamax) and swaps; the updates are
// shared. The strict upper triangle is zeroed at the end, as PyTorch does.
#include "common/sync.glsl"
#include "common/workgroup.glsl"

layout(push_constant) uniform Args {
  uint64_t ld;      // [B, n, n]
  uint64_t pivots;  // int32 [B, n], contiguous rows
  uint64_t info;    // int32 [B]
  uint64_t batches;
  int64_t n;
  int64_t batch_stride, row_stride, col_stride;  // of ld, elements
  int64_t pivots_stride;                         // elements between batches
} args;

shared int64_t chosen_row;
shared int chosen_step;  // 1 or 2; 0: a zero column, no pivot

uint64_t base;

uint64_t at(int64_t i, int64_t j) {
  return base + uint64_t(i * args.row_stride + j * args.col_stride) * X_BYTES;
}
X_T a(int64_t i, int64_t j) { return X_load(at(i, j)); }

void swap(int64_t i, int64_t j, int64_t p, int64_t q) {
  X_T v = a(i, j);
  X_store(at(i, j), a(p, q));
  X_store(at(p, q), v);
}

// Invocation 0: the pivot of step k (sytf2's choice), into the shared pair.
void choose(int64_t k, int64_t n) {
  const X_T alpha = X_T((1.0 + sqrt(17.0)) / 8.0);
  X_T absakk = abs(a(k, k)), colmax = X_T(0);
  int64_t imax = k;
  for (int64_t i = k + 1; i < n; ++i) {
    X_T v = abs(a(i, k));
    if (v > colmax) {
      colmax = v;
      imax = i;
    }
  }
  chosen_row = k;
  chosen_step = 1;
  if (max(absakk, colmax) == X_T(0) || isnan(absakk)) {
    chosen_step = 0;
    return;
  }
  if (absakk >= alpha * colmax) return;
  X_T rowmax = X_T(0);
  for (int64_t j = k; j < imax; ++j) rowmax = max(rowmax, abs(a(imax, j)));
  for (int64_t i = imax + 1; i < n; ++i) rowmax = max(rowmax, abs(a(i, imax)));
  if (absakk >= alpha * colmax * (colmax / rowmax)) return;
  chosen_row = imax;
  if (abs(a(imax, imax)) < alpha * rowmax) chosen_step = 2;
}

void main() {
  uint64_t b = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (b >= args.batches) return;
  base = args.ld + b * uint64_t(args.batch_stride) * X_BYTES;
  uint64_t pivots = args.pivots + b * uint64_t(args.pivots_stride) * 4u;
  int64_t t = int64_t(gl_LocalInvocationID.x), W = int64_t(kWorkgroupSize), n = args.n;
  int info = 0;
  for (int64_t k = 0; k < n;) {
    if (t == 0) choose(k, n);
    sync_workgroup();
    int64_t kp = chosen_row;
    int step = chosen_step;
    int64_t kk = k + max(step, 1) - 1;
    if (t == 0) {
      if (step == 0 && info == 0) info = int(k + 1);
      if (step != 0 && kp != kk) {  // rows and columns kk and kp of the trailing block
        for (int64_t i = kp + 1; i < n; ++i) swap(i, kk, i, kp);
        for (int64_t j = kk + 1; j < kp; ++j) swap(j, kk, kp, j);
        swap(kk, kk, kp, kp);
        if (step == 2) swap(k + 1, k, kp, k);
      }
      RefI32(pivots + uint64_t(k) * 4u).v = step == 2 ? -int(kp + 1) : int(kp + 1);
      if (step == 2) RefI32(pivots + uint64_t(k + 1) * 4u).v = -int(kp + 1);
    }
    sync_workgroup();
    if (step == 1) {
      // A22 -= x (x / d) ^T over the lower triangle (syr), then x /= d.
      X_T d = X_T(1) / a(k, k);
      int64_t m = n - k - 1;
      for (int64_t e = t; e < m * m; e += W) {
        int64_t i = k + 1 + e / m, j = k + 1 + e % m;
        if (i >= j) X_store(at(i, j), a(i, j) + a(i, k) * (-d * a(j, k)));
      }
      sync_workgroup();
      for (int64_t i = k + 1 + t; i < n; i += W) X_store(at(i, k), d * a(i, k));
    } else if (step == 2 && k + 2 < n) {
      X_T d21 = a(k + 1, k), d11 = a(k + 1, k + 1) / d21, d22 = a(k, k) / d21;
      d21 = (X_T(1) / (d11 * d22 - X_T(1))) / d21;
      // Column j's multipliers from the pivot columns as they were: every
      // update reads them before any is replaced.
      int64_t m = n - k - 2;
      for (int64_t e = t; e < m * m; e += W) {
        int64_t i = k + 2 + e / m, j = k + 2 + e % m;
        if (i < j) continue;
        X_T wk = d21 * (d11 * a(j, k) - a(j, k + 1)), wkp1 = d21 * (d22 * a(j, k + 1) - a(j, k));
        X_store(at(i, j), a(i, j) - a(i, k) * wk - a(i, k + 1) * wkp1);
      }
      sync_workgroup();
      for (int64_t j = k + 2 + t; j < n; j += W) {
        X_T wk = d21 * (d11 * a(j, k) - a(j, k + 1)), wkp1 = d21 * (d22 * a(j, k + 1) - a(j, k));
        X_store(at(j, k), wk);
        X_store(at(j, k + 1), wkp1);
      }
    }
    sync_workgroup();
    k += max(step, 1);
  }
  for (int64_t e = t; e < n * n; e += W) {
    int64_t i = e / n, j = e % n;
    if (j > i) X_store(at(i, j), X_T(0));
  }
  if (t == 0) RefI32(args.info + b * 4u).v = info;
}
