// Softmax family, one workgroup per row: the row's max, then the sum of
// exponentials, then the result, each pass a strided loop over the row and a
// tree in shared memory. Rows are elements along the softmax dim of a
// contiguous tensor viewed as [outer, length, inner]: row r starts at
// (r / inner) * length * inner + r % inner, and its elements are `inner` apart.
//   softmax:              y = exp(x - max) / sum
//   log_softmax:          y = x - max - log(sum)
//   softmax_backward:     dx = y * (dy - sum(dy * y))          (a = dy, b = y)
//   log_softmax_backward: dx = dy - exp(y) * sum(dy)            (a = dy, b = y)

#ifdef X_DT_F64
#define WG_T double
#define ACC_T double
#define EXP m_exp  // double exp/log from common/math64.glsl (GLSL has none)
#define LOG m_log
#else
#define ACC_T float
#define EXP exp
#define LOG log
#endif
#include "common/workgroup.glsl"
#include "common/math.glsl"

layout(push_constant) uniform Args {
  uint64_t a;
  uint64_t b;
  uint64_t target;
  uint64_t rows;
  uint64_t row_length;
  uint64_t inner;
} args;

void main() {
  uint64_t row = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (row >= args.rows) return;
  uint64_t first = (row / args.inner) * args.row_length * args.inner + row % args.inner;
  uint tid = gl_LocalInvocationID.x;
  uint64_t bytes = uint64_t(X_BYTES);
#define AT(base, k) (base + (first + uint64_t(k) * args.inner) * bytes)

#if defined(OP_softmax) || defined(OP_log_softmax)
  ACC_T m = ACC_T(-1.0 / 0.0);
  for (uint64_t k = tid; k < args.row_length; k += kWorkgroupSize) m = max_nan(m, X_load(AT(args.a, k)));
  m = workgroup_max(m);
  ACC_T s = 0.0;
  for (uint64_t k = tid; k < args.row_length; k += kWorkgroupSize) s += EXP(X_load(AT(args.a, k)) - m);
  s = workgroup_sum(s);
#ifdef OP_softmax
  ACC_T inv = 1.0 / s;
  for (uint64_t k = tid; k < args.row_length; k += kWorkgroupSize) {
    X_store(AT(args.target, k), EXP(X_load(AT(args.a, k)) - m) * inv);
  }
#else
  ACC_T shift = m + LOG(s);
  for (uint64_t k = tid; k < args.row_length; k += kWorkgroupSize) X_store(AT(args.target, k), X_load(AT(args.a, k)) - shift);
#endif
#elif defined(OP_softmax_backward)
  ACC_T dot = 0.0;
  for (uint64_t k = tid; k < args.row_length; k += kWorkgroupSize) dot += X_load(AT(args.a, k)) * X_load(AT(args.b, k));
  dot = workgroup_sum(dot);
  for (uint64_t k = tid; k < args.row_length; k += kWorkgroupSize) {
    X_store(AT(args.target, k), X_load(AT(args.b, k)) * (X_load(AT(args.a, k)) - dot));
  }
#elif defined(OP_log_softmax_backward)
  ACC_T total = 0.0;
  for (uint64_t k = tid; k < args.row_length; k += kWorkgroupSize) total += X_load(AT(args.a, k));
  total = workgroup_sum(total);
  for (uint64_t k = tid; k < args.row_length; k += kWorkgroupSize) {
    X_store(AT(args.target, k), X_load(AT(args.a, k)) - EXP(X_load(AT(args.b, k))) * total);
  }
#else
#error "softmax: unknown op"
#endif
}
