// linalg_ldl_solve: X = A^-1 B from A's LDL^T factors and pivots (ldl_factor
// .comp, LAPACK's format), as LAPACK's sytrs (lower) solves in place in X
// (which holds B), one invocation per right-hand column of a batch:
//   L D y = P^T b: k ascending; a 1x1 pivot swaps rows k and its pivot,
//     subtracts column k of L times y_k below and divides y_k by d_kk; a
//     2x2 pivot swaps rows k + 1 and its pivot, subtracts both columns and
//     solves the 2x2 block (sytrs' scaled formulas);
//   L^T P^T x = y: k descending, the rows below subtracted, then the swap.
layout(push_constant) uniform Args {
  uint64_t params;
} args;

// int64 words (csrc/aten/ops/linalg/ldl.cpp): 0 ld [B, n, n], 1 pivots
// int32 [B, n] (contiguous rows), 2 x [B, n, nrhs] addresses; 3 B, 4 n,
// 5 nrhs; 6-8 ld's strides, 9-11 x's (elements).
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

Params p;
uint64_t ld_base, x_base, piv_base;

X_T l(int64_t i, int64_t j) { return X_load(ld_base + uint64_t(i * p.v[7] + j * p.v[8]) * X_BYTES); }
uint64_t x_at(int64_t i) { return x_base + uint64_t(i * p.v[10]) * X_BYTES; }
X_T x(int64_t i) { return X_load(x_at(i)); }
int pivot(int64_t k) { return RefI32(piv_base + uint64_t(k) * 4u).v; }

void swap_rows(int64_t i, int64_t j) {
  if (i == j) return;
  X_T v = x(i);
  X_store(x_at(i), x(j));
  X_store(x_at(j), v);
}

void main() {
  p = Params(args.params);
  int64_t n = p.v[4], nrhs = p.v[5];
  int64_t e = int64_t(global_index());
  if (e >= p.v[3] * nrhs) return;
  int64_t b = e / nrhs, column = e % nrhs;
  ld_base = uint64_t(p.v[0]) + uint64_t(b * p.v[6]) * X_BYTES;
  piv_base = uint64_t(p.v[1]) + uint64_t(b * n) * 4u;
  x_base = uint64_t(p.v[2]) + uint64_t(b * p.v[9] + column * p.v[11]) * X_BYTES;
  for (int64_t k = 0; k < n;) {
    if (pivot(k) > 0) {
      swap_rows(k, int64_t(pivot(k)) - 1);
      X_T y = x(k);
      for (int64_t i = k + 1; i < n; ++i) X_store(x_at(i), x(i) - l(i, k) * y);
      X_store(x_at(k), x(k) * (X_T(1) / l(k, k)));
      k += 1;
    } else {
      swap_rows(k + 1, int64_t(-pivot(k)) - 1);
      X_T y0 = x(k), y1 = x(k + 1);
      for (int64_t i = k + 2; i < n; ++i) X_store(x_at(i), x(i) - l(i, k) * y0);
      for (int64_t i = k + 2; i < n; ++i) X_store(x_at(i), x(i) - l(i, k + 1) * y1);
      X_T akm1k = l(k + 1, k), akm1 = l(k, k) / akm1k, ak = l(k + 1, k + 1) / akm1k;
      X_T denom = akm1 * ak - X_T(1), bkm1 = y0 / akm1k, bk = y1 / akm1k;
      X_store(x_at(k), (ak * bkm1 - bk) / denom);
      X_store(x_at(k + 1), (akm1 * bk - bkm1) / denom);
      k += 2;
    }
  }
  for (int64_t k = n - 1; k >= 0;) {
    bool two = pivot(k) < 0;
    for (int64_t c = two ? k - 1 : k; c <= k; ++c) {
      X_T s = x(c);
      for (int64_t i = k + 1; i < n; ++i) s -= l(i, c) * x(i);
      X_store(x_at(c), s);
    }
    swap_rows(k, int64_t(abs(pivot(k))) - 1);
    k -= two ? 2 : 1;
  }
}
