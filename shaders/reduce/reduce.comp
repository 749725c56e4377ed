// Reductions (sum, mean, prod, amax, amin, any, all, nansum, count_nonzero
// and the vector norms) of any set of dimensions in one pass over memory. The
// host (csrc/aten/ops/reduce/reduce.cpp) splits
// the input's dimensions into kept ones (one output per index) and reduced
// ones, coalesced, and picks a strategy:
//  - mode 0, one workgroup per output (or per part of an output when the
//    reduction is long and outputs are few): invocations stride over the
//    reduced elements, then a tree in shared memory. With several parts each
//    workgroup writes a partial (in the accumulator type) and a second launch
//    (stage 1) reduces the partials: a tree across workgroups.
//  - mode 1, one invocation per output (or per part of it, partials reduced
//    by stage 1 as above) looping over the reduced elements, for reductions
//    over an outer dimension (consecutive outputs are then consecutive in
//    memory, so the loads coalesce).
// Each element passes through element() before it is accumulated (|x|^p for
// a norm) and each result through finish() (the root of a norm); partials
// hold the accumulated values in between. Float sums are compensated (Kahan)
// in every loop.
// (common/base.glsl comes with the variant prelude)
#include "common/math.glsl"
#include "reduce/layout.glsl"

layout(constant_id = 0) const uint kWorkgroupSize = 256;

layout(push_constant) uniform Args {
  uint64_t meta;    // Params
  uint64_t source;  // stage 0: the input; stage 1: the partials
  uint64_t target;  // the output tensor, or the partials when parts > 1
  uint64_t second;  // welford.comp's mean output; the launch is shared
  uint64_t scalar;  // as bits of ACC_T: mean: 1/n; norm: the order p
  uint mode;
  uint stage;
} args;

// int64 words: [0] outputs, [1] reduce size, [2] parts, [3] n_kept, [4] n_reduced,
// then kept sizes, kept input strides, kept output strides (bytes), reduced
// sizes, reduced input strides (bytes); dimension 0 varies fastest.

#if defined(OP_count_nonzero)
#define ACC_T int64_t
#define ACC_BYTES 8
layout(buffer_reference, std430, buffer_reference_align = 8) buffer AccRef { int64_t v; };
#elif defined(X_DT_F64)
#define ACC_T double
#define ACC_FLOAT 1
#define ACC_BYTES 8
layout(buffer_reference, std430, buffer_reference_align = 8) buffer AccRef { double v; };
#elif defined(X_DT_F16) || defined(X_DT_BF16) || defined(X_DT_F32)
#define ACC_T float
#define ACC_FLOAT 1
#define ACC_BYTES 4
layout(buffer_reference, std430, buffer_reference_align = 4) buffer AccRef { float v; };
#elif defined(X_DT_I64)
#define ACC_T int64_t
#define ACC_BYTES 8
layout(buffer_reference, std430, buffer_reference_align = 8) buffer AccRef { int64_t v; };
#elif defined(X_DT_B8)
#define ACC_T bool
#define ACC_BYTES 4
layout(buffer_reference, std430, buffer_reference_align = 4) buffer AccRef { bool v; };
#else
#define ACC_T int
#define ACC_BYTES 4
layout(buffer_reference, std430, buffer_reference_align = 4) buffer AccRef { int v; };
#endif

#if defined(OP_sum) || defined(OP_mean) || defined(OP_nansum) || defined(OP_count_nonzero) || defined(OP_norm)
#define SUMMING 1
ACC_T identity() { return ACC_T(0); }
ACC_T combine(ACC_T a, ACC_T b) { return a + b; }
#elif defined(OP_prod)
ACC_T identity() { return ACC_T(1); }
ACC_T combine(ACC_T a, ACC_T b) { return a * b; }
#elif defined(OP_amax) || defined(OP_amin) || defined(OP_norm_inf) || defined(OP_norm_neginf)
#if defined(ACC_FLOAT)
ACC_T lowest() { return ACC_T(-1.0 / 0.0); }
ACC_T highest() { return ACC_T(1.0 / 0.0); }
#elif defined(X_DT_I64)
ACC_T lowest() { return int64_t(0x8000000000000000ul); }
ACC_T highest() { return int64_t(0x7FFFFFFFFFFFFFFFul); }
#elif defined(X_DT_B8)
ACC_T lowest() { return false; }
ACC_T highest() { return true; }
#else
ACC_T lowest() { return int(0x80000000u); }
ACC_T highest() { return int(0x7FFFFFFF); }
#endif
#ifdef X_DT_B8
bool greater(bool a, bool b) { return a && !b; }
#else
bool greater(ACC_T a, ACC_T b) { return a > b; }
#endif
#if defined(OP_amax) || defined(OP_norm_inf)
ACC_T identity() { return lowest(); }
bool better(ACC_T a, ACC_T b) { return greater(a, b); }
#else
ACC_T identity() { return highest(); }
bool better(ACC_T a, ACC_T b) { return greater(b, a); }
#endif
ACC_T combine(ACC_T a, ACC_T b) {
#ifdef ACC_FLOAT
  if (isnan(a)) return a;  // NaN propagates, as in PyTorch
  if (isnan(b)) return b;
#endif
  return better(b, a) ? b : a;
}
#elif defined(OP_any)
ACC_T identity() { return false; }
ACC_T combine(ACC_T a, ACC_T b) { return a || b; }
#elif defined(OP_all)
ACC_T identity() { return true; }
ACC_T combine(ACC_T a, ACC_T b) { return a && b; }
#else
#error "reduce: unknown op"
#endif

#ifdef ACC_FLOAT
ACC_T scalar() {
#ifdef X_DT_F64
  return uint64BitsToDouble(args.scalar);
#else
  return uintBitsToFloat(uint(args.scalar));
#endif
}

// a^p for a >= 0 (or NaN), with C's pow at 0 and infinity.
ACC_T power(ACC_T a, ACC_T p) {
  if (a == ACC_T(0)) return p > ACC_T(0) ? ACC_T(0) : ACC_T(1.0 / 0.0);
  if (isinf(a)) return p > ACC_T(0) ? a : ACC_T(0);
  return m_exp(p * m_log(a));
}
#endif

ACC_T element(X_T x) {
#if defined(OP_nansum)
  return isnan(x) ? ACC_T(0) : ACC_T(x);
#elif defined(OP_count_nonzero)
  return x != X_T(0) ? ACC_T(1) : ACC_T(0);
#elif defined(OP_norm)
  ACC_T p = scalar(), a = abs(ACC_T(x));
  if (p == ACC_T(0)) return x != X_T(0) ? ACC_T(1) : ACC_T(0);
  if (p == ACC_T(1)) return a;
  if (p == ACC_T(2)) return a * a;
  return power(a, p);
#elif defined(OP_norm_inf) || defined(OP_norm_neginf)
  return abs(ACC_T(x));
#else
  return ACC_T(x);
#endif
}

ACC_T finish(ACC_T value) {
#if defined(OP_mean)
  return value * scalar();
#elif defined(OP_norm)
  ACC_T p = scalar();
  if (p == ACC_T(0) || p == ACC_T(1)) return value;
  if (p == ACC_T(2)) return sqrt(value);
  return power(value, ACC_T(1) / p);
#else
  return value;
#endif
}

// A running reduction: Kahan-compensated for float sums.
struct Acc {
  ACC_T value;
  ACC_T lost;
};

Acc start() { return Acc(identity(), ACC_T(0)); }

Acc add(Acc a, ACC_T x) {
#if defined(ACC_FLOAT) && defined(SUMMING)
  ACC_T y = x - a.lost;
  ACC_T t = a.value + y;
  return Acc(t, (t - a.value) - y);
#else
  return Acc(combine(a.value, x), a.lost);
#endif
}

shared ACC_T scratch[kWorkgroupSize];

void write(Params p, int64_t o, int n_kept, ACC_T value, int64_t parts, int64_t part) {
  if (parts > 1) {
    AccRef(args.target + uint64_t(o * parts + part) * uint64_t(ACC_BYTES)).v = value;
    return;
  }
  uint64_t target = args.target + uint64_t(offset_of(p, o, 5, 5 + 2 * n_kept, n_kept));
#ifdef OP_count_nonzero
  RefI64(target).v = value;
#else
  X_store(target, X_T(finish(value)));
#endif
}

void main() {
  Params p = Params(args.meta);
  int64_t outputs = p.v[0];
  int64_t reduce_size = p.v[1];
  int64_t parts = p.v[2];
  int n_kept = int(p.v[3]);
  int n_red = int(p.v[4]);
  int red_sizes = 5 + 3 * n_kept;
  uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint tid = gl_LocalInvocationID.x;

  if (args.mode == 1) {
    // One invocation per (output, part): consecutive invocations take
    // consecutive outputs (coalesced loads); each sums a `parts`-th of the
    // reduced elements.
    int64_t t = int64_t(group * kWorkgroupSize + tid);
    if (t >= outputs * parts) return;
    int64_t part = t / outputs;
    int64_t o = t - part * outputs;
    int64_t chunk = (reduce_size + parts - 1) / parts;
    int64_t end = min(reduce_size, (part + 1) * chunk);
    uint64_t base = args.source + uint64_t(offset_of(p, o, 5, 5 + n_kept, n_kept));
    Acc acc = start();
    for (int64_t r = part * chunk; r < end; ++r) {
      acc = add(acc, element(X_load(base + uint64_t(offset_of(p, r, red_sizes, red_sizes + n_red, n_red)))));
    }
    write(p, o, n_kept, acc.value, parts, part);
    return;
  }

  // One workgroup per (output, part); stage 1: one per output.
  int64_t o = args.stage == 1 ? int64_t(group) : int64_t(group) / parts;
  int64_t part = int64_t(group) - o * parts;
  if (o >= outputs) return;
  Acc acc = start();
  if (args.stage == 1) {  // the partials of output o: `parts` consecutive values
    uint64_t base = args.source + uint64_t(o * parts) * uint64_t(ACC_BYTES);
    for (int64_t r = tid; r < parts; r += kWorkgroupSize) {
      acc = add(acc, AccRef(base + uint64_t(r) * uint64_t(ACC_BYTES)).v);
    }
    parts = 1;
  } else {
    uint64_t base = args.source + uint64_t(offset_of(p, o, 5, 5 + n_kept, n_kept));
    int64_t step = int64_t(kWorkgroupSize) * parts;
    for (int64_t r = part * kWorkgroupSize + tid; r < reduce_size; r += step) {
      acc = add(acc, element(X_load(base + uint64_t(offset_of(p, r, red_sizes, red_sizes + n_red, n_red)))));
    }
  }
  scratch[tid] = acc.value;
  barrier();
  for (uint s = kWorkgroupSize / 2; s > 0; s >>= 1) {
    if (tid < s) scratch[tid] = combine(scratch[tid], scratch[tid + s]);
    barrier();
  }
  if (tid == 0) write(p, o, n_kept, scratch[0], parts, part);
}
