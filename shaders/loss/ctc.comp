// _ctc_loss and _ctc_loss_backward (Graves et al., "Connectionist Temporal
// Classification", 2006) in log space, as the CPU computes them, one
// workgroup per batch element b. Its label sequence l' is the target with a
// blank around every label (S = 2L + 1 states, l'_s = blank for even s):
//   alpha_0(0) = lp_0(blank), alpha_0(1) = lp_0(l'_1), else -inf;
//   alpha_t(s) = lse(alpha_{t-1}(s), alpha_{t-1}(s-1), alpha_{t-1}(s-2) when
//                l'_{s-2} != l'_s) + lp_t(l'_s)
//   nll = -lse(alpha_{T-1}(S-1), alpha_{T-1}(S-2))
// backward: beta the same from the end, then for t < T (input length) and
// every class c,
//   grad_t(c) = (exp(lp_t(c)) - exp(lse_{s: l'_s = c}(alpha_t(s) + beta_t(s))
//                + nll - lp_t(c))) * grad_b
// and zero past T, or everywhere for an infinite nll with zero_infinity.
// Each time step's states are shared among the invocations; the steps are
// ordered by workgroup barriers.
#include "common/fault.glsl"
#include "common/math.glsl"
#include "common/sync.glsl"
#include "common/workgroup.glsl"

layout(push_constant) uniform Args {
  uint64_t params;
} args;

// int64 words (csrc/aten/ops/loss/ctc.cpp): 0 log_probs, 1 targets (int64,
// contiguous), 2 per-batch table (input length, target length, offset of
// the targets), 3 log_alpha, 4 nll, 5 log_beta, 6 grad, 7 grad_out
// addresses; 8 T (max input length), 9 C, 10 S (2 max target length + 1),
// 11 blank, 12 zero_infinity; 13-15 log_probs strides (t, b, c), 16-18
// grad's; 19 the batch size. A target label outside [0, C) is reported
// (common/fault.glsl) and read as a blank.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

Params p;
int64_t b, T, L, S, target_offset;
const X_T kNegInf = X_T(-1.0 / 0.0);

int64_t label(int64_t s) {
  if (s % 2 == 0) return p.v[11];
  int64_t c = RefI64(uint64_t(p.v[1]) + uint64_t(target_offset + s / 2) * 8).v;
  if (c < 0 || c >= p.v[9]) {
    report_fault(FAULT_INDEX);
    return p.v[11];
  }
  return c;
}

X_T lp(int64_t t, int64_t c) {
  return X_load(uint64_t(p.v[0]) + uint64_t(t * p.v[13] + b * p.v[14] + c * p.v[15]) * X_BYTES);
}

// alpha (table 3) or beta (table 5) at (t, s) for this batch element.
uint64_t state(int table, int64_t t, int64_t s) {
  return uint64_t(p.v[table]) + uint64_t((b * p.v[8] + t) * p.v[10] + s) * X_BYTES;
}

X_T lse3(X_T a, X_T c, X_T d) {
  X_T m = max(a, max(c, d));
  if (m == kNegInf) return kNegInf;
  return m + m_log(m_exp(a - m) + m_exp(c - m) + m_exp(d - m));
}

X_T lse2(X_T a, X_T c) { return lse3(a, c, kNegInf); }

void main() {
  p = Params(args.params);
  b = int64_t(gl_WorkGroupID.y) * int64_t(gl_NumWorkGroups.x) + int64_t(gl_WorkGroupID.x);
  uint64_t table = uint64_t(p.v[2]) + uint64_t(b) * 24;
  if (b >= p.v[19]) return;
  T = RefI64(table).v;
  L = RefI64(table + 8).v;
  target_offset = RefI64(table + 16).v;
  S = 2 * L + 1;
  int64_t t0 = int64_t(gl_LocalInvocationID.x), W = int64_t(kWorkgroupSize);
#ifdef OP_forward
  for (int64_t e = t0; e < p.v[8] * p.v[10]; e += W) X_store(state(3, e / p.v[10], e % p.v[10]), kNegInf);
  sync_workgroup();
  if (T > 0) {
    if (t0 == 0) {
      X_store(state(3, 0, 0), lp(0, p.v[11]));
      if (L > 0) X_store(state(3, 0, 1), lp(0, label(1)));
    }
  }
  for (int64_t t = 1; t < T; ++t) {
    sync_workgroup();
    for (int64_t s = t0; s < S; s += W) {
      int64_t c = label(s);
      X_T a = X_load(state(3, t - 1, s));
      X_T a1 = s > 0 ? X_load(state(3, t - 1, s - 1)) : kNegInf;
      X_T a2 = s > 1 && label(s - 2) != c ? X_load(state(3, t - 1, s - 2)) : kNegInf;
      X_store(state(3, t, s), lse3(a, a1, a2) + lp(t, c));
    }
  }
  sync_workgroup();
  if (t0 == 0) {
    X_T nll = T > 0 ? -lse2(X_load(state(3, T - 1, S - 1)), L > 0 ? X_load(state(3, T - 1, S - 2)) : kNegInf)
                    : (L > 0 ? -kNegInf : X_T(0));
    X_store(uint64_t(p.v[4]) + uint64_t(b) * X_BYTES, nll);
  }
#else
  X_T nll = X_load(uint64_t(p.v[4]) + uint64_t(b) * X_BYTES);
  X_T g = X_load(uint64_t(p.v[7]) + uint64_t(b) * X_BYTES);
  bool zero = p.v[12] != 0 && isinf(nll);
  if (!zero && T > 0) {
    for (int64_t e = t0; e < T * S; e += W) X_store(state(5, e / S, e % S), kNegInf);
    sync_workgroup();
    if (t0 == 0) {
      X_store(state(5, T - 1, S - 1), lp(T - 1, p.v[11]));
      if (L > 0) X_store(state(5, T - 1, S - 2), lp(T - 1, label(S - 2)));
    }
    for (int64_t t = T - 2; t >= 0; --t) {
      sync_workgroup();
      for (int64_t s = t0; s < S; s += W) {
        int64_t c = label(s);
        X_T a = X_load(state(5, t + 1, s));
        X_T a1 = s < S - 1 ? X_load(state(5, t + 1, s + 1)) : kNegInf;
        X_T a2 = s < S - 2 && label(s + 2) != c ? X_load(state(5, t + 1, s + 2)) : kNegInf;
        X_store(state(5, t, s), lse3(a, a1, a2) + lp(t, c));
      }
    }
  }
  sync_workgroup();
  int64_t C = p.v[9];
  for (int64_t e = t0; e < p.v[8] * C; e += W) {
    int64_t t = e / C, c = e % C;
    X_T value = X_T(0);
    if (!zero && t < T) {
      X_T sum = kNegInf;
      for (int64_t s = 0; s < S; ++s)
        if (label(s) == c) sum = lse2(sum, X_load(state(3, t, s)) + X_load(state(5, t, s)));
      X_T l = lp(t, c);
      value = (m_exp(l) - m_exp(sum + nll - l)) * g;
    }
    X_store(uint64_t(p.v[6]) + uint64_t(t * p.v[16] + b * p.v[17] + c * p.v[18]) * X_BYTES, value);
  }
#endif
}
