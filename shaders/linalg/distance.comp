// _cdist_forward / _pdist_forward and their backwards: p-norm distances
// between rows, one invocation per element written, as the CPU's kernels.
//   forward:  dist(u, v) = (sum_k |u_k - v_k|^p)^(1/p); p = 0 counts the
//             differing columns, p = inf takes the largest difference
//   backward: grad_u_k = sum over the rows v paired with u of
//             grad(u, v) * d dist(u, v) / d u_k, the CPU's per-p forms
//             (zero where dist is zero; p < 1 also where u_k == v_k)
// cdist pairs row i of x1 with every row j of x2, batch by batch; pdist
// pairs the rows i < j of one matrix, stored as the condensed vector
// (pair index n i - i (i + 1) / 2 + j - i - 1). The backward runs one
// invocation per element of grad_x1 (pdist: of grad_self) and gathers over
// the rows paired with its row: no atomics.
layout(push_constant) uniform Args {
  uint64_t params;
} args;

// int64 words (csrc/aten/ops/linalg/distance.cpp): 0 x1, 1 x2, 2 out
// (forward: the distances; backward: grad_x1), 3 grad, 4 dist addresses
// (backward); 5 batches, 6 r1, 7 r2, 8 columns; strides (elements) of x1
// 9-11, x2 12-14, out 15-17, grad 18-20, dist 21-23 (batch, row, column;
// pdist's vectors: 0, 0, stride); 24 p as float bits; 25 pdist (1) or
// cdist (0); 26 p as double bits (float64 variants).
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

#include "elementwise/pointwise_math.glsl"

Params p;

// Element (b, r, c) of x1 (operand 0) or x2 (1).
X_T value(int operand, int64_t b, int64_t r, int64_t c) {
  int s = 9 + 3 * operand;
  return X_load(uint64_t(p.v[operand]) + uint64_t(b * p.v[s] + r * p.v[s + 1] + c * p.v[s + 2]) * X_BYTES);
}

X_T exponent() {
#ifdef X_DT_F64
  return uint64BitsToDouble(uint64_t(p.v[26]));
#else
  return uintBitsToFloat(uint(p.v[24]));
#endif
}

// The (b, row, column) a pdist pair index stands for, and back.
int64_t pair_index(int64_t n, int64_t i, int64_t j) { return n * i - i * (i + 1) / 2 + j - i - 1; }

void pair_rows(int64_t n, int64_t k, out int64_t i, out int64_t j) {
  // The row i whose pairs hold k: the last i with pair_index(n, i, i + 1) <=
  // k, estimated in float (the quadratic's root) and then stepped exactly.
  float h = float(n) - 0.5;
  i = int64_t(floor(h - sqrt(max(h * h - 2.0 * float(k), 0.0))));
  i = clamp(i, int64_t(0), n - 2);
  while (i > 0 && pair_index(n, i, i + 1) > k) --i;
  while (i + 1 < n - 1 && pair_index(n, i + 1, i + 2) <= k) ++i;
  j = k - pair_index(n, i, i + 1) + i + 1;
}

#ifdef OP_forward
X_T distance(int64_t b, int64_t i, int64_t j, X_T e) {
  int64_t m = p.v[8];
  X_T acc = X_T(0);
  for (int64_t c = 0; c < m; ++c) {
    X_T d = abs(value(0, b, i, c) - value(1, b, j, c));
    if (e == X_T(0)) acc += d != X_T(0) ? X_T(1) : X_T(0);
    else if (e == X_T(1)) acc += d;
    else if (e == X_T(2)) acc += d * d;
    else if (isinf(e)) acc = max(acc, d);
    else acc += pow_x(d, e);
  }
  if (e == X_T(0) || e == X_T(1) || isinf(e)) return acc;
  if (e == X_T(2)) return sqrt(acc);
  return pow_x(acc, X_T(1) / e);
}
#else
// d dist / d u_k times grad, for diff = u_k - v_k.
X_T slope(X_T diff, X_T grad, X_T dist, X_T e) {
  X_T s = diff > X_T(0) ? X_T(1) : (diff < X_T(0) ? X_T(-1) : X_T(0));
  if (e == X_T(1)) return grad * s;
  if (isinf(e)) return grad * s * (abs(diff) == dist ? X_T(1) : X_T(0));
  if (dist == X_T(0)) return X_T(0);
  if (e == X_T(2)) return grad * diff / dist;
  if (e < X_T(2)) {
    if (diff == X_T(0) && e < X_T(1)) return X_T(0);
    return s * pow_x(abs(diff), e - X_T(1)) * grad / pow_x(dist, e - X_T(1));
  }
  return diff * pow_x(abs(diff), e - X_T(2)) * grad / pow_x(dist, e - X_T(1));
}
#endif

void main() {
  p = Params(args.params);
  int64_t batches = p.v[5], r1 = p.v[6], r2 = p.v[7], m = p.v[8];
  bool pdist = p.v[25] != 0;
  X_T e = exponent();
  int64_t i = int64_t(global_index());
#ifdef OP_forward
  int64_t per_batch = pdist ? r1 * (r1 - 1) / 2 : r1 * r2;
  if (i >= batches * per_batch) return;
  int64_t b = i / per_batch, k = i % per_batch, row, col;
  if (pdist) {
    pair_rows(r1, k, row, col);
  } else {
    row = k / r2;
    col = k % r2;
  }
  uint64_t to = uint64_t(p.v[2]) + uint64_t(b * p.v[15] + (pdist ? 0 : row * p.v[16]) + (pdist ? k : col) * p.v[17]) * X_BYTES;
  X_store(to, distance(b, row, col, e));
#else
  if (i >= batches * r1 * m) return;
  int64_t c = i % m, row = (i / m) % r1, b = i / (m * r1);
  X_T u = value(0, b, row, c), sum = X_T(0);
  for (int64_t j = 0; j < r2; ++j) {
    if (pdist && j == row) continue;
    int64_t at = pdist ? pair_index(r1, min(row, j), max(row, j)) : j;
    // grad and dist: cdist's [b, row, j], pdist's element `at`.
    uint64_t g = uint64_t(b * p.v[18] + (pdist ? 0 : row * p.v[19]) + at * p.v[20]);
    uint64_t d = uint64_t(b * p.v[21] + (pdist ? 0 : row * p.v[22]) + at * p.v[23]);
    sum += slope(u - value(1, b, j, c), X_load(uint64_t(p.v[3]) + g * X_BYTES), X_load(uint64_t(p.v[4]) + d * X_BYTES), e);
  }
  X_store(uint64_t(p.v[2]) + uint64_t(b * p.v[15] + row * p.v[16] + c * p.v[17]) * X_BYTES, sum);
#endif
}
