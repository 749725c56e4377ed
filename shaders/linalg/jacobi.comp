// Symmetric eigendecomposition by cyclic Jacobi rotations, one workgroup per
// matrix of a batch [B, n, n] (a: the full symmetric matrix, contiguous,
// overwritten; v: the eigenvectors, any strides): each round rotates n / 2
// disjoint index pairs (p, q) at once (the circle method's round-robin
// pairing, so a sweep of n - 1 rounds meets every pair once), each by the
// rotation J that zeroes a_pq (Golub and Van Loan's sym.schur2):
//   theta = (a_qq - a_pp) / (2 a_pq), t = sign(theta) / (|theta| +
//   sqrt(theta^2 + 1)), c = 1 / sqrt(1 + t^2), s = t c;  a := J^T a J,
//   v := v J
// until the off-diagonal mass is below machine precision (or 30 sweeps).
// The eigenvalues are left on a's diagonal; the host sorts them.
#ifdef X_DT_F64
#define WG_T double
#endif
#include "common/sync.glsl"
#include "common/workgroup.glsl"

layout(push_constant) uniform Args {
  uint64_t a;    // [B, n, n], contiguous
  uint64_t v;    // [B, n, n], or 0: eigenvalues only
  uint64_t rot;  // [B, n / 2 + 1, 2] scratch: each round's (c, s)
  uint64_t batches;
  int64_t n;
  int64_t v_batch_stride, v_row_stride, v_col_stride;  // elements
} args;

#ifdef X_DT_F64
const X_T kEps = 2.220446049250313e-16LF;
#else
const X_T kEps = 1.1920928955078125e-07;
#endif
const int kMaxSweeps = 30;

uint64_t a_base, v_base, rot_base;

uint64_t a_at(int64_t i, int64_t j) { return a_base + uint64_t(i * args.n + j) * X_BYTES; }
uint64_t v_at(int64_t i, int64_t j) {
  return v_base + uint64_t(i * args.v_row_stride + j * args.v_col_stride) * X_BYTES;
}

// Pair k of round r among N (even) indices: index N - 1 meets r, the others
// meet across the circle of the remaining N - 1.
void pair(int64_t r, int64_t k, int64_t N, out int64_t p, out int64_t q) {
  int64_t m = N - 1, x = k == 0 ? r : (r + k) % m, y = k == 0 ? m : (r - k + m) % m;
  p = min(x, y);
  q = max(x, y);
}

void main() {
  uint64_t b = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (b >= args.batches) return;
  int64_t n = args.n, N = n + n % 2, half_n = N / 2;
  int64_t t = int64_t(gl_LocalInvocationID.x), W = int64_t(kWorkgroupSize);
  bool vectors = args.v != 0ul;
  a_base = args.a + b * uint64_t(n * n) * X_BYTES;
  v_base = args.v + b * uint64_t(args.v_batch_stride) * X_BYTES;
  rot_base = args.rot + b * uint64_t(2 * (half_n + 1)) * X_BYTES;
  if (vectors)
    for (int64_t e = t; e < n * n; e += W) X_store(v_at(e / n, e % n), e / n == e % n ? X_T(1) : X_T(0));
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    sync_workgroup();
    X_T off = X_T(0), all = X_T(0);
    for (int64_t e = t; e < n * n; e += W) {
      X_T x = X_load(a_at(e / n, e % n));
      all += x * x;
      if (e / n != e % n) off += x * x;
    }
    X_T off_total = X_T(workgroup_sum(WG_T(off)));
    X_T all_total = X_T(workgroup_sum(WG_T(all)));
    if (!(off_total > kEps * kEps * all_total)) break;  // also stops on NaN
    for (int64_t r = 0; r < N - 1; ++r) {
      for (int64_t k = t; k < half_n; k += W) {
        int64_t p, q;
        pair(r, k, N, p, q);
        X_T c = X_T(1), s = X_T(0);
        if (q < n) {
          X_T apq = X_load(a_at(p, q));
          if (apq != X_T(0)) {
            X_T theta = (X_load(a_at(q, q)) - X_load(a_at(p, p))) / (X_T(2) * apq);
            X_T tn = (theta >= X_T(0) ? X_T(1) : X_T(-1)) / (abs(theta) + sqrt(theta * theta + X_T(1)));
            c = X_T(1) / sqrt(X_T(1) + tn * tn);
            s = tn * c;
          }
        }
        X_store(rot_base + uint64_t(2 * k) * X_BYTES, c);
        X_store(rot_base + uint64_t(2 * k + 1) * X_BYTES, s);
      }
      sync_workgroup();
      // a := J^T a (rows p and q of each pair).
      for (int64_t e = t; e < half_n * n; e += W) {
        int64_t k = e / n, j = e % n, p, q;
        pair(r, k, N, p, q);
        if (q >= n) continue;
        X_T c = X_load(rot_base + uint64_t(2 * k) * X_BYTES), s = X_load(rot_base + uint64_t(2 * k + 1) * X_BYTES);
        X_T ap = X_load(a_at(p, j)), aq = X_load(a_at(q, j));
        X_store(a_at(p, j), c * ap - s * aq);
        X_store(a_at(q, j), s * ap + c * aq);
      }
      sync_workgroup();
      // a := a J and v := v J (columns p and q).
      for (int64_t e = t; e < half_n * n; e += W) {
        int64_t k = e / n, i = e % n, p, q;
        pair(r, k, N, p, q);
        if (q >= n) continue;
        X_T c = X_load(rot_base + uint64_t(2 * k) * X_BYTES), s = X_load(rot_base + uint64_t(2 * k + 1) * X_BYTES);
        X_T ap = X_load(a_at(i, p)), aq = X_load(a_at(i, q));
        X_store(a_at(i, p), c * ap - s * aq);
        X_store(a_at(i, q), s * ap + c * aq);
        if (vectors) {
          X_T vp = X_load(v_at(i, p)), vq = X_load(v_at(i, q));
          X_store(v_at(i, p), c * vp - s * vq);
          X_store(v_at(i, q), s * vp + c * vq);
        }
      }
      sync_workgroup();
    }
  }
}
