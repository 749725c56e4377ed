// Householder QR as LAPACK stores it, one workgroup per matrix of a batch
// [B, m, n] (any strides), tau [B, k]:
//   geqrf: for each column i < k = min(m, n), dlarfg's reflector
//          H_i = I - tau_i v v^T, v = [1, x / (alpha - beta)], which maps
//          column i's (alpha, x) to (beta, 0) with beta = -sign(alpha)
//          ||(alpha, x)|| (tau_i = 0 when x = 0); v's tail replaces x and
//          H_i is applied to the columns right of i (geqr2)
//   orgqr: the first n columns of Q = H_0 ... H_{k-1} in place of the
//          reflectors, applied backwards to the identity's columns (org2r)
// Norms are scaled by the largest magnitude first, as dnrm2 avoids overflow.
#include "common/sync.glsl"
#ifdef X_DT_F64
#define WG_T double
#endif
#include "common/workgroup.glsl"

layout(push_constant) uniform Args {
  uint64_t a;    // [B, m, n]
  uint64_t tau;  // [B, k]
  uint64_t batches;
  int64_t m, n, k;
  int64_t batch_stride, row_stride, col_stride;  // of a, elements
  int64_t tau_batch_stride, tau_stride;          // elements
} args;

uint64_t base, tau_base;
int64_t t, W;

uint64_t at(int64_t i, int64_t j) {
  return base + uint64_t(i * args.row_stride + j * args.col_stride) * X_BYTES;
}

uint64_t tau_at(int64_t i) { return tau_base + uint64_t(i * args.tau_stride) * X_BYTES; }

// Applies H_i (v = [1, a[i+1:, i]]) from the left to columns [first, n) of
// rows [i, m); every invocation a column at a time.
void reflect(int64_t i, X_T tau, int64_t first) {
  if (tau == X_T(0)) return;
  for (int64_t c = first + t; c < args.n; c += W) {
    X_T w = X_load(at(i, c));
    for (int64_t r = i + 1; r < args.m; ++r) w += X_load(at(r, i)) * X_load(at(r, c));
    w *= tau;
    X_store(at(i, c), X_load(at(i, c)) - w);
    for (int64_t r = i + 1; r < args.m; ++r) X_store(at(r, c), X_load(at(r, c)) - X_load(at(r, i)) * w);
  }
}

#ifdef OP_geqrf
// ||a[i+1:, i]||, scaled by its largest magnitude.
X_T tail_norm(int64_t i) {
  X_T largest = X_T(0);
  for (int64_t r = i + 1 + t; r < args.m; r += W) largest = max(largest, abs(X_load(at(r, i))));
  X_T scale = X_T(workgroup_max(WG_T(largest)));
  if (scale == X_T(0) || isnan(scale) || isinf(scale)) return scale;
  X_T sum = X_T(0);
  for (int64_t r = i + 1 + t; r < args.m; r += W) {
    X_T v = X_load(at(r, i)) / scale;
    sum += v * v;
  }
  return scale * sqrt(X_T(workgroup_sum(WG_T(sum))));
}

void main() {
  uint64_t b = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (b >= args.batches) return;
  base = args.a + b * uint64_t(args.batch_stride) * X_BYTES;
  tau_base = args.tau + b * uint64_t(args.tau_batch_stride) * X_BYTES;
  t = int64_t(gl_LocalInvocationID.x);
  W = int64_t(kWorkgroupSize);
  for (int64_t i = 0; i < args.k; ++i) {
    X_T alpha = X_load(at(i, i)), xnorm = tail_norm(i), tau = X_T(0);
    if (xnorm != X_T(0)) {
      X_T big = max(abs(alpha), xnorm), small = min(abs(alpha), xnorm);
      X_T beta = big * sqrt(X_T(1) + (small / big) * (small / big));
      if (alpha >= X_T(0)) beta = -beta;
      tau = (beta - alpha) / beta;
      X_T scale = X_T(1) / (alpha - beta);
      for (int64_t r = i + 1 + t; r < args.m; r += W) X_store(at(r, i), X_load(at(r, i)) * scale);
      sync_workgroup();  // every invocation has read alpha
      if (t == 0) X_store(at(i, i), beta);
    }
    if (t == 0) X_store(tau_at(i), tau);
    sync_workgroup();
    reflect(i, tau, i + 1);
    sync_workgroup();
  }
}
#endif

#ifdef OP_orgqr
void main() {
  uint64_t b = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (b >= args.batches) return;
  base = args.a + b * uint64_t(args.batch_stride) * X_BYTES;
  tau_base = args.tau + b * uint64_t(args.tau_batch_stride) * X_BYTES;
  t = int64_t(gl_LocalInvocationID.x);
  W = int64_t(kWorkgroupSize);
  int64_t m = args.m, n = args.n, k = args.k;
  // Columns past the reflectors start as the identity's.
  for (int64_t e = t; e < m * (n - k); e += W) {
    int64_t r = e % m, c = k + e / m;
    X_store(at(r, c), r == c ? X_T(1) : X_T(0));
  }
  sync_workgroup();
  for (int64_t i = k - 1; i >= 0; --i) {
    X_T tau = X_load(tau_at(i));
    reflect(i, tau, i + 1);
    sync_workgroup();
    for (int64_t r = i + 1 + t; r < m; r += W) X_store(at(r, i), -tau * X_load(at(r, i)));
    for (int64_t r = t; r < i; r += W) X_store(at(r, i), X_T(0));
    if (t == 0) X_store(at(i, i), X_T(1) - tau);
    sync_workgroup();
  }
}
#endif
