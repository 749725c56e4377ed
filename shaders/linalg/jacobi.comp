// Cyclic Jacobi rotations, one workgroup per matrix of a batch [B, m, n]
// (a: contiguous, overwritten; v: [B, n, n], any strides). Each round
// rotates n / 2 disjoint index pairs (p, q) at once (the circle method's
// round-robin pairing, so a sweep of n - 1 rounds meets every pair once):
//   eigh: a symmetric (m = n); the rotation J zeroes a_pq (Golub and Van
//         Loan's sym.schur2): theta = (a_qq - a_pp) / (2 a_pq), t =
//         sign(theta) / (|theta| + sqrt(theta^2 + 1)), c = 1 / sqrt(1 +
//         t^2), s = t c;  a := J^T a J, v := v J, until the off-diagonal
//         mass is below machine precision. The eigenvalues are left on a's
//         diagonal.
//   svd:  one-sided (Hestenes): J makes columns p and q of a orthogonal,
//         the same rotation with theta = (|a_q|^2 - |a_p|^2) / (2 a_p.a_q);
//         a := a J, v := v J, until every pair's cosine is below machine
//         precision. Then a = U diag(sigma) with sigma the column norms and
//         v = V.
// At most 30 sweeps; the host sorts and normalizes.
#ifdef X_DT_F64
#define WG_T double
#endif
#include "common/sync.glsl"
#include "common/workgroup.glsl"

layout(push_constant) uniform Args {
  uint64_t a;    // [B, n, n], contiguous
  uint64_t v;    // [B, n, n], or 0: eigenvalues only
  uint64_t rot;  // [B, (n + 1) / 2, 2] scratch: each round's (c, s)
  uint64_t batches;
  int64_t m, n;
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
uint64_t rot_at(int64_t k, int64_t c) { return rot_base + uint64_t(2 * k + c) * X_BYTES; }
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

// The rotation (c, s) with tangent sign(theta) / (|theta| + sqrt(theta^2 + 1)).
void rotation(X_T theta, out X_T c, out X_T s) {
  X_T tn = (theta >= X_T(0) ? X_T(1) : X_T(-1)) / (abs(theta) + sqrt(theta * theta + X_T(1)));
  c = X_T(1) / sqrt(X_T(1) + tn * tn);
  s = tn * c;
}

// Element i of columns p and q of a matrix (`at` addresses it) := (c p - s q, s p + c q).
#define ROTATE_COLUMNS(load, store, at, i, p, q, c, s)        \
  {                                                          \
    X_T xp = load(at(i, p)), xq = load(at(i, q));            \
    store(at(i, p), c * xp - s * xq);                        \
    store(at(i, q), s * xp + c * xq);                        \
  }

void main() {
  uint64_t b = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (b >= args.batches) return;
  int64_t m = args.m, n = args.n, N = n + n % 2, half_n = N / 2;
  int64_t t = int64_t(gl_LocalInvocationID.x), W = int64_t(kWorkgroupSize);
  bool vectors = args.v != 0ul;
  a_base = args.a + b * uint64_t(m * n) * X_BYTES;
  v_base = args.v + b * uint64_t(args.v_batch_stride) * X_BYTES;
  rot_base = args.rot + b * uint64_t(2 * half_n) * X_BYTES;
  if (vectors)
    for (int64_t e = t; e < n * n; e += W) X_store(v_at(e / n, e % n), e / n == e % n ? X_T(1) : X_T(0));
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    sync_workgroup();
#ifdef OP_eigh
    X_T off = X_T(0), all = X_T(0);
    for (int64_t e = t; e < n * n; e += W) {
      X_T x = X_load(a_at(e / n, e % n));
      all += x * x;
      if (e / n != e % n) off += x * x;
    }
    X_T off_total = X_T(workgroup_sum(WG_T(off)));
    X_T all_total = X_T(workgroup_sum(WG_T(all)));
    if (!(off_total > kEps * kEps * all_total)) break;  // also stops on NaN
#else
    X_T worst = X_T(0);  // the largest |cos| between two columns this sweep
#endif
    for (int64_t r = 0; r < N - 1; ++r) {
      for (int64_t k = t; k < half_n; k += W) {
        int64_t p, q;
        pair(r, k, N, p, q);
        X_T c = X_T(1), s = X_T(0);
        if (q < n) {
#ifdef OP_eigh
          X_T apq = X_load(a_at(p, q));
          if (apq != X_T(0)) rotation((X_load(a_at(q, q)) - X_load(a_at(p, p))) / (X_T(2) * apq), c, s);
#else
          X_T pp = X_T(0), qq = X_T(0), pq = X_T(0);
          for (int64_t i = 0; i < m; ++i) {
            X_T xp = X_load(a_at(i, p)), xq = X_load(a_at(i, q));
            pp += xp * xp;
            qq += xq * xq;
            pq += xp * xq;
          }
          if (pq != X_T(0)) {
            worst = max(worst, abs(pq) / sqrt(pp * qq));
            rotation((qq - pp) / (X_T(2) * pq), c, s);
          }
#endif
        }
        X_store(rot_at(k, 0), c);
        X_store(rot_at(k, 1), s);
      }
      sync_workgroup();
#ifdef OP_eigh
      // a := J^T a (rows p and q of each pair).
      for (int64_t e = t; e < half_n * n; e += W) {
        int64_t k = e / n, j = e % n, p, q;
        pair(r, k, N, p, q);
        if (q >= n) continue;
        X_T c = X_load(rot_at(k, 0)), s = X_load(rot_at(k, 1));
        X_T ap = X_load(a_at(p, j)), aq = X_load(a_at(q, j));
        X_store(a_at(p, j), c * ap - s * aq);
        X_store(a_at(q, j), s * ap + c * aq);
      }
      sync_workgroup();
#endif
      // a := a J and v := v J (columns p and q).
      for (int64_t e = t; e < half_n * max(m, n); e += W) {
        int64_t k = e / max(m, n), i = e % max(m, n), p, q;
        pair(r, k, N, p, q);
        if (q >= n) continue;
        X_T c = X_load(rot_at(k, 0)), s = X_load(rot_at(k, 1));
        if (i < m) ROTATE_COLUMNS(X_load, X_store, a_at, i, p, q, c, s)
        if (vectors && i < n) ROTATE_COLUMNS(X_load, X_store, v_at, i, p, q, c, s)
      }
      sync_workgroup();
    }
#ifdef OP_svd
    if (!(X_T(workgroup_max(WG_T(worst))) > kEps)) break;
#endif
  }
}
