// multilabel_margin_loss's sums, one invocation per element (n, i) of the
// input [N, C] (contiguous), for row x with targets y_j, j below the first
// negative entry of target row n (the CPU's list), and the hinge
// z_ji = 1 - x[y_j] + x[i] over the classes i that are not targets:
//   forward:  out[n, i] = sum_j max(z_ji, 0) (0 for a target class), and
//             is_target[n, i]
//   backward: out[n, i] = #{j : z_ji > 0} for a class i that is no target,
//             less, for a target class, #{(j, i') : y_j == i, z_ji' > 0}
//             (the loss's gradient times C), with the target classes read
//             from the forward's is_target, as the CPU's backward reads them
// The host sums and scales them. A target entry out of [-1, C), listed or
// not, is reported (common/fault.glsl), as the CPU checks them all; one in
// the list is skipped.
layout(push_constant) uniform Args {
  uint64_t params;
} args;

// int64 words (csrc/aten/ops/loss/multilabel_margin.cpp): 0 x, 1 target,
// 2 out, 3 is_target (written forward, read backward) addresses; 4 N, 5 C.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

#include "common/fault.glsl"

Params p;
int64_t C;
uint64_t row_x, row_target;

X_T x_at(int64_t i) { return X_load(row_x + uint64_t(i) * X_BYTES); }

// Target j of the row, or -1 for one out of range (reported by the
// invocation of its entry).
int64_t target(int64_t j) {
  int64_t y = RefI64(row_target + uint64_t(j) * 8).v;
  return y < C ? y : -1;
}

int64_t targets() {
  int64_t n = 0;
  while (n < C && RefI64(row_target + uint64_t(n) * 8).v >= 0) ++n;
  return n;
}

// How many of the row's first `count` targets name class i.
int64_t naming(int64_t i, int64_t count) {
  int64_t m = 0;
  for (int64_t j = 0; j < count; ++j)
    if (target(j) == i) ++m;
  return m;
}

void main() {
  p = Params(args.params);
  int64_t N = p.v[4];
  C = p.v[5];
  int64_t e = int64_t(global_index());
  if (e >= N * C) return;
  int64_t n = e / C, i = e % C;
  row_x = uint64_t(p.v[0]) + uint64_t(n * C) * X_BYTES;
  row_target = uint64_t(p.v[1]) + uint64_t(n * C) * 8;
  int64_t own_entry = RefI64(row_target + uint64_t(i) * 8).v;
  if (own_entry < -1 || own_entry >= C) report_fault(FAULT_INDEX);
  int64_t count = targets(), m = naming(i, count);
  uint64_t row_is_target = uint64_t(p.v[3]) + uint64_t(n * C) * X_BYTES;
#ifdef OP_forward
  bool own = m > 0;
#else
  bool own = X_load(row_is_target + uint64_t(i) * X_BYTES) != X_T(0);
#endif
  X_T sum = X_T(0);
  if (!own) {
    X_T xi = x_at(i);
    for (int64_t j = 0; j < count; ++j) {
      int64_t y = target(j);
      if (y < 0) continue;
      X_T z = X_T(1) - x_at(y) + xi;
#ifdef OP_forward
      sum += max(z, X_T(0));
#else
      if (z > X_T(0)) sum += X_T(1);
#endif
    }
  }
#ifdef OP_forward
  X_store(row_is_target + uint64_t(i) * X_BYTES, own ? X_T(1) : X_T(0));
#else
  else if (m > 0) {
    // The m target positions naming class i, each against every non-target class.
    X_T xy = x_at(i), hinges = X_T(0);
    for (int64_t k = 0; k < C; ++k)
      if (X_load(row_is_target + uint64_t(k) * X_BYTES) == X_T(0) && X_T(1) - xy + x_at(k) > X_T(0))
        hinges += X_T(1);
    sum = -X_T(m) * hinges;
  }
#endif
  X_store(uint64_t(p.v[2]) + uint64_t(e) * X_BYTES, sum);
}
