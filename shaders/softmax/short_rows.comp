// Softmax family over the last dim of contiguous rows of at most SHORT
// elements, one invocation a row held in registers, where last_dim.comp
// spends a workgroup and two trees of barriers on each row. The MNIST
// benchmark's log_softmax over 10 classes (128 rows) took 16 us there, and
// its backward 17, against about 8 for a kernel that does nothing much
// (H100, 2026-12-07, benchmark/step_kernels.py). Ops and inputs as in
// softmax.comp (a = x or dy, b = y), computed in float (double for float64).
#extension GL_EXT_control_flow_attributes : require
#ifdef X_DT_F64
#define EXP m_exp
#define LOG m_log
#else
#define EXP exp
#define LOG log
#endif
#include "common/math.glsl"

layout(push_constant) uniform Args {
  uint64_t a;
  uint64_t b;
  uint64_t target;
  uint64_t rows;
  uint row_length;  // <= SHORT
} args;

X_T max_nan(X_T x, X_T y) { return isnan(x) || x > y ? x : y; }

void main() {
  uint64_t row = global_index();
  if (row >= args.rows) return;
  uint n = args.row_length;
  uint64_t offset = row * n * X_BYTES;
  X_T v[SHORT];
  [[unroll]] for (uint k = 0; k < SHORT; ++k) v[k] = k < n ? X_load(args.a + offset + uint64_t(k) * X_BYTES) : X_T(0);
#if defined(OP_softmax) || defined(OP_log_softmax)
  X_T m = X_T(-1.0 / 0.0);
  [[unroll]] for (uint k = 0; k < SHORT; ++k) if (k < n) m = max_nan(m, v[k]);
  X_T s = X_T(0);
  [[unroll]] for (uint k = 0; k < SHORT; ++k) if (k < n) s += EXP(v[k] - m);
#ifdef OP_softmax
  X_T inv = X_T(1) / s;
  [[unroll]] for (uint k = 0; k < SHORT; ++k) v[k] = EXP(v[k] - m) * inv;
#else
  X_T shift = m + LOG(s);
  [[unroll]] for (uint k = 0; k < SHORT; ++k) v[k] -= shift;
#endif
#else
  // softmax: dx = y * (dy - sum(dy * y)); log_softmax: dx = dy - exp(y) * sum(dy).
  X_T y[SHORT];
  [[unroll]] for (uint k = 0; k < SHORT; ++k) y[k] = k < n ? X_load(args.b + offset + uint64_t(k) * X_BYTES) : X_T(0);
  X_T acc = X_T(0);
#ifdef OP_softmax_backward
  [[unroll]] for (uint k = 0; k < SHORT; ++k) acc += v[k] * y[k];
  [[unroll]] for (uint k = 0; k < SHORT; ++k) v[k] = y[k] * (v[k] - acc);
#else
  [[unroll]] for (uint k = 0; k < SHORT; ++k) acc += v[k];
  [[unroll]] for (uint k = 0; k < SHORT; ++k) v[k] -= EXP(y[k]) * acc;
#endif
#endif
  [[unroll]] for (uint k = 0; k < SHORT; ++k) if (k < n) X_store(args.target + offset + uint64_t(k) * X_BYTES, v[k]);
}
