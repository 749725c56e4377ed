// linalg_cholesky_ex: A = L L^T in place (the lower triangle; the host
// passes A^T's view for upper = True), one workgroup per matrix of a batch
// [B, n, n], as LAPACK's potf2 column by column:
//   d = a_jj (already less the earlier columns' squares); d <= 0 or NaN:
//   info = j + 1, a_jj = d and the factorization stops there; else
//   l_jj = sqrt(d), l_ij = a_ij / l_jj below, and the trailing lower
//   triangle loses l_i l_c.
// The strict upper triangle is zeroed at the end.
#include "common/sync.glsl"
layout(push_constant) uniform Args {
  uint64_t l;     // [B, n, n]
  uint64_t info;  // int32 [B]
  uint64_t batches;
  int64_t n;
  int64_t batch_stride, row_stride, col_stride;  // elements
} args;

uint64_t base;

uint64_t at(int64_t i, int64_t j) {
  return base + uint64_t(i * args.row_stride + j * args.col_stride) * X_BYTES;
}

void main() {
  uint64_t b = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (b >= args.batches) return;
  base = args.l + b * uint64_t(args.batch_stride) * X_BYTES;
  int64_t t = int64_t(gl_LocalInvocationID.x), W = int64_t(gl_WorkGroupSize.x), n = args.n;
  int info = 0;
  for (int64_t j = 0; j < n; ++j) {
    X_T d = X_load(at(j, j));
    if (!(d > X_T(0))) {
      info = int(j + 1);
      break;
    }
    X_T root = sqrt(d);
    sync_workgroup();  // every invocation has read a_jj before it changes
    if (t == 0) X_store(at(j, j), root);
    for (int64_t i = j + 1 + t; i < n; i += W) X_store(at(i, j), X_load(at(i, j)) / root);
    sync_workgroup();
    // The trailing lower triangle, rows i > j, columns j < c <= i.
    int64_t rows = n - j - 1;
    for (int64_t e = t; e < rows * rows; e += W) {
      int64_t i = j + 1 + e / rows, c = j + 1 + e % rows;
      if (c <= i) X_store(at(i, c), X_load(at(i, c)) - X_load(at(i, j)) * X_load(at(c, j)));
    }
    sync_workgroup();
  }
  sync_workgroup();
  for (int64_t e = t; e < n * n; e += W) {
    int64_t i = e / n, c = e % n;
    if (c > i) X_store(at(i, c), X_T(0));
  }
  if (t == 0) RefI32(args.info + b * 4u).v = info;
}
