// Reductions (sum, mean, prod, amax, amin, any, all, nansum, count_nonzero,
// hash_tensor's xor and the vector norms) of any set of dimensions in one pass over memory. The
// host (csrc/aten/ops/reduce/reduce.cpp) splits the input's dimensions into
// kept ones (one output per index) and reduced ones, coalesced, and picks a
// strategy (args.mode):
//  - 2, rows: the reduced elements of an output are one contiguous run (sum
//    over the last dim, or over everything). `args.threads` invocations (a
//    power of two) take each (output, part), so short rows still fill the
//    workgroup. They step a pointer over the run in aligned 16-byte vectors
//    (X_loadv: VEC elements), four vectors loaded before any is accumulated,
//    into four independent accumulators: full-width coalesced accesses with
//    64 bytes in flight per invocation, which is what HBM bandwidth needs
//    (one scalar load at a time, behind a dependent add, reaches under half).
//    The unaligned head of a run (up to 15 bytes) and its ragged tail go
//    element by element; then a tree in shared memory.
//  - 3, columns: a reduction over outer dims with the innermost kept dim
//    contiguous and every reduced stride a multiple of 16 bytes (sum over dim
//    0). Each invocation takes VEC consecutive outputs: one 16-byte vector per
//    reduced step (the outputs before the first aligned address, and a
//    row's ragged end, take a shorter group element by element), steps its
//    pointer by the reduced stride and loads four steps before adding them.
//    `args.threads` invocations share each group's steps (see columns()).
//    Partials are stored part-major, so stage 1 is one invocation per output
//    reading them coalesced.
//  - 0, general: one workgroup per output (or per part of it): invocations
//    stride over the reduced elements through the index walk of layout.glsl,
//    then a tree in shared memory.
//  - 1, general outer: one invocation per output (or per part) looping over
//    the reduced elements; consecutive outputs are consecutive in memory, so
//    the loads coalesce, but 4 bytes at a time.
// With several parts each writes a partial (in the accumulator type) and a
// second launch (stage 1) reduces the partials.
// Each element passes through element() before it is accumulated (|x|^p for
// a norm) and each result through finish() (the root of a norm); partials
// hold the accumulated values in between. Float sums are compensated (Kahan)
// in every loop, each accumulator on its own.
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
  uint mode;        // the strategies above
  uint stage;
  uint threads;     // invocations per (output, part) in mode 2, per (output group, part) in mode 3: a power of two
} args;

const uint kGeneral = 0, kGeneralOuter = 1, kRows = 2, kColumns = 3;

// int64 words: [0] outputs, [1] reduce size, [2] parts, [3] n_kept, [4] n_reduced,
// then kept sizes, kept input strides, kept output strides (bytes), reduced
// sizes, reduced input strides (bytes); dimension 0 varies fastest.

#if defined(OP_count_nonzero) || defined(OP_hash_xor) || defined(OP_hash_xor_f16) || defined(OP_hash_xor_bf16)
#define INT64_OUT 1
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
#elif defined(OP_hash_xor) || defined(OP_hash_xor_f16) || defined(OP_hash_xor_bf16)
ACC_T identity() { return ACC_T(0); }
ACC_T combine(ACC_T a, ACC_T b) { return a ^ b; }
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

#if defined(OP_hash_xor) || defined(OP_hash_xor_f16) || defined(OP_hash_xor_bf16)
// The bits of the float32 value with bits b widened to float64, as the
// CPU's conversion gives them (hash_tensor hashes those): the exponent
// rebiased, the mantissa moved up 29 bits, subnormals normalized, NaNs
// keeping sign and payload (quieted). In integer arithmetic: no fp64
// needed, and no driver's conversion to trust with NaN payloads.
int64_t float64_bits(uint b) {
  uint e = (b >> 23) & 0xFFu, m = b & 0x7FFFFFu;
  uint64_t sign = uint64_t(b >> 31) << 63, mantissa = uint64_t(m) << 29, exponent;
  if (e == 0xFFu) {
    exponent = 2047ul;
    if (m != 0u) mantissa |= 1ul << 51;
  } else if (e != 0u) {
    exponent = uint64_t(e + 896u);  // - 127 + 1023
  } else if (m == 0u) {
    exponent = 0ul;
  } else {  // m * 2^-149 = 1.f * 2^(top - 149)
    int top = findMSB(m);
    exponent = uint64_t(top + 874);  // top - 149 + 1023
    mantissa = uint64_t(m ^ (1u << top)) << (52 - top);
  }
  return int64_t(sign | (exponent << 52) | mantissa);
}

// The float32 bits of the float16 with bits h, as c10's conversion gives
// them (NaN payloads kept; the variant reads float16 as raw int16 so that no
// driver's conversion touches them first).
uint float32_bits(uint h) {
  uint sign = (h >> 15) << 31, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  if (e == 0x1Fu) return sign | 0x7F800000u | (m << 13);
  if (e != 0u) return sign | ((e + 112u) << 23) | (m << 13);  // - 15 + 127
  if (m == 0u) return sign;
  int top = findMSB(m);  // m * 2^-24 = 1.f * 2^(top - 24)
  return sign | (uint(top + 103) << 23) | ((m ^ (1u << top)) << (23 - top));
}
#endif

ACC_T element(X_T x) {
#if defined(OP_hash_xor_f16)  // float16 read as int16
  return float64_bits(float32_bits(uint(x) & 0xFFFFu));
#elif defined(OP_hash_xor_bf16)  // bfloat16 read as int16
  return float64_bits((uint(x) & 0xFFFFu) << 16);
#elif defined(OP_hash_xor) && defined(X_DT_F64)
  return doubleBitsToInt64(x);
#elif defined(OP_hash_xor) && defined(X_DT_F32)
  return float64_bits(floatBitsToUint(x));
#elif defined(OP_hash_xor) && defined(X_DT_B8)
  return x ? ACC_T(1) : ACC_T(0);
#elif defined(OP_hash_xor)
  return int64_t(x);  // sign-extended as the CPU's cast to uint64
#elif defined(OP_nansum)
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

// A running reduction: Kahan-compensated for float sums. `precise` keeps the
// compiler from folding the compensation away; an infinite sum keeps no
// compensation (inf - inf would turn it into NaN).
#if defined(ACC_FLOAT) && defined(SUMMING)
#define KAHAN 1
#endif
struct Acc {
  ACC_T value;
  ACC_T lost;
};

Acc start() { return Acc(identity(), ACC_T(0)); }

Acc add(Acc a, ACC_T x) {
#ifdef KAHAN
  precise ACC_T y = x - a.lost;
  precise ACC_T t = a.value + y;
  precise ACC_T lost = (t - a.value) - y;
  return Acc(t, isinf(t) ? ACC_T(0) : lost);
#else
  return Acc(combine(a.value, x), a.lost);
#endif
}

Acc merge(Acc a, Acc b) {
#ifdef KAHAN
  return add(add(a, b.value), -b.lost);
#else
  return Acc(combine(a.value, b.value), a.lost);
#endif
}

ACC_T total(Acc a) {
#ifdef KAHAN
  return a.value - a.lost;
#else
  return a.value;
#endif
}

// The VEC elements of one vector load, combined pairwise.
ACC_T combine_vector(X_T v[VEC]) {
  ACC_T r[VEC];
  for (int k = 0; k < VEC; ++k) r[k] = element(v[k]);
  for (int w = VEC / 2; w > 0; w /= 2) {
    for (int k = 0; k < w; ++k) r[k] = combine(r[k], r[k + w]);
  }
  return r[0];
}

shared ACC_T scratch[kWorkgroupSize];

void write_partial(int64_t slot, ACC_T value) {
  AccRef(args.target + uint64_t(slot) * uint64_t(ACC_BYTES)).v = value;
}

void write_at(uint64_t target, ACC_T value) {
#ifdef INT64_OUT
  RefI64(target).v = value;
#else
  X_store(target, X_T(finish(value)));
#endif
}

void write(Params p, int64_t o, int n_kept, ACC_T value) {
  write_at(args.target + uint64_t(offset_of(p, o, 5, 5 + 2 * n_kept, n_kept)), value);
}

// Combines scratch[] over each run of `threads` invocations (a power of two)
// into its first.
void tree(uint tid, uint threads) {
  uint lane = tid & (threads - 1);
  barrier();
  for (uint s = threads / 2; s > 0; s >>= 1) {
    if (lane < s) scratch[tid] = combine(scratch[tid], scratch[tid + s]);
    barrier();
  }
}

// Mode 2, stage 0.
void rows(Params p, uint64_t group, uint tid) {
  int64_t outputs = p.v[0], reduce_size = p.v[1], parts = p.v[2];
  int n_kept = int(p.v[3]);
  uint threads = args.threads;
  uint lane = tid & (threads - 1);
  int64_t block = int64_t(group) / parts;  // parts > 1 only with a workgroup per output
  int64_t part = int64_t(group) - block * parts;
  int64_t o = block * int64_t(kWorkgroupSize / threads) + int64_t(tid / threads);
  Acc acc = start();
  if (o < outputs) {
    uint64_t row = args.source + uint64_t(offset_of(p, o, 5, 5 + n_kept, n_kept));
    int64_t head = min(reduce_size, int64_t(((16u - uint(row & 15ul)) & 15u) / uint(X_BYTES)));
    int64_t body_end = head + (reduce_size - head) / VEC * VEC;
    int64_t first = part * int64_t(threads) + int64_t(lane), stride = int64_t(threads) * parts;
    for (int64_t i = first; i < head; i += stride) acc = add(acc, element(X_load(row + uint64_t(i * X_BYTES))));
    for (int64_t i = body_end + first; i < reduce_size; i += stride) {
      acc = add(acc, element(X_load(row + uint64_t(i * X_BYTES))));
    }
    uint64_t at = row + uint64_t((head + first * VEC) * X_BYTES);
    uint64_t end = row + uint64_t(body_end * X_BYTES);
    uint64_t step = uint64_t(stride) * uint64_t(VEC * X_BYTES);
    Acc acc1 = start(), acc2 = start(), acc3 = start();
    for (; at + 3 * step < end; at += 4 * step) {
      X_T v0[VEC], v1[VEC], v2[VEC], v3[VEC];
      X_loadv(at, v0);
      X_loadv(at + step, v1);
      X_loadv(at + 2 * step, v2);
      X_loadv(at + 3 * step, v3);
      acc = add(acc, combine_vector(v0));
      acc1 = add(acc1, combine_vector(v1));
      acc2 = add(acc2, combine_vector(v2));
      acc3 = add(acc3, combine_vector(v3));
    }
    for (; at < end; at += step) {
      X_T v[VEC];
      X_loadv(at, v);
      acc1 = add(acc1, combine_vector(v));
    }
    acc = merge(merge(acc, acc1), merge(acc2, acc3));
  }
  scratch[tid] = total(acc);
  tree(tid, threads);
  if (lane == 0 && o < outputs) {
    if (parts > 1) {
      write_partial(o * parts + part, scratch[tid]);
    } else {
      write(p, o, n_kept, scratch[tid]);
    }
  }
}

// Mode 3, stage 0. Each output group (VEC adjacent outputs, or the shorter
// group of a row's unaligned head or ragged end) is taken by `args.threads`
// invocations of a workgroup (`split`, a power of two), each over its share
// of the part's reduced steps [r, end), combined in shared memory: with few
// reduced steps and many outputs (the MNIST benchmark's bias gradient, 128
// rows) one invocation a group left too few warps to cover the loads'
// latency. Invocation tid takes group `col` of the workgroup's row of
// groups and share `sub`.
void columns(Params p, uint64_t group, uint tid) {
  int64_t outputs = p.v[0], reduce_size = p.v[1], parts = p.v[2];
  int n_kept = int(p.v[3]);
  int n_red = int(p.v[4]);
  int red_sizes = 5 + 3 * n_kept;
  int64_t size = p.v[5];                       // the contiguous kept dim's
  int64_t groups_per_row = 1 + (size + VEC - 2) / VEC;  // enough for any head
  int64_t groups = outputs / size * groups_per_row;
  uint split = args.threads, lanes = kWorkgroupSize / split;
  uint sub = tid / lanes, col = tid - sub * lanes;
  int64_t blocks = (groups + lanes - 1) / lanes;  // workgroups a part
  int64_t part = int64_t(group) / blocks;
  int64_t g = (int64_t(group) - part * blocks) * lanes + col;
  bool valid = part < parts && g < groups;
  int64_t row = valid ? g / groups_per_row : 0;
  g -= row * groups_per_row;
  uint64_t row_at = args.source + uint64_t(offset_of(p, row * size, 5, 5 + n_kept, n_kept));
  // Group 0 ends where the row's first aligned vector begins; the others take VEC each.
  int64_t head = int64_t(((16u - uint(row_at & 15ul)) & 15u) / uint(X_BYTES));
  if (head == 0) head = VEC;
  int64_t first = max(int64_t(0), head + (g - 1) * VEC), last = min(size, head + g * VEC);
  valid = valid && first < last;
  int64_t o = row * size + first;
  uint64_t at = row_at + uint64_t(first * X_BYTES);
  // The part's steps, then this invocation's share of them (each end as r +
  // chunk: see kGeneralOuter in main()).
  int64_t chunk = (reduce_size + parts - 1) / parts;
  int64_t r = part * chunk, end = min(reduce_size, r + chunk);
  int64_t share = (end - r + split - 1) / split;
  r += int64_t(sub) * share;
  end = min(end, r + share);

  Acc acc[VEC];
  for (int e = 0; e < VEC; ++e) acc[e] = start();
  if (!valid) {
    end = r;  // nothing to load; still takes part in the combination below
  }
  if (last - first == VEC && n_red == 1) {
    uint64_t step = uint64_t(p.v[red_sizes + 1]);
    at += uint64_t(r) * step;
    for (; r + 4 <= end; r += 4, at += 4 * step) {
      X_T v0[VEC], v1[VEC], v2[VEC], v3[VEC];
      X_loadv(at, v0);
      X_loadv(at + step, v1);
      X_loadv(at + 2 * step, v2);
      X_loadv(at + 3 * step, v3);
      for (int e = 0; e < VEC; ++e) {
        acc[e] = add(add(add(add(acc[e], element(v0[e])), element(v1[e])), element(v2[e])), element(v3[e]));
      }
    }
    for (; r < end; ++r, at += step) {
      X_T v[VEC];
      X_loadv(at, v);
      for (int e = 0; e < VEC; ++e) acc[e] = add(acc[e], element(v[e]));
    }
  } else if (last - first == VEC) {
    for (; r < end; ++r) {
      X_T v[VEC];
      X_loadv(at + uint64_t(offset_of(p, r, red_sizes, red_sizes + n_red, n_red)), v);
      for (int e = 0; e < VEC; ++e) acc[e] = add(acc[e], element(v[e]));
    }
  } else {
    for (; r < end; ++r) {
      uint64_t step_at = at + uint64_t(offset_of(p, r, red_sizes, red_sizes + n_red, n_red));
      for (int e = 0; e < last - first; ++e) acc[e] = add(acc[e], element(X_load(step_at + uint64_t(e * X_BYTES))));
    }
  }
  if (split > 1) {  // uniform: every invocation of the workgroup is here
    for (int e = 0; e < VEC; ++e) {
      scratch[tid] = total(acc[e]);
      barrier();
      if (sub == 0) {
        Acc s = start();
        for (uint k = 0; k < split; ++k) s = add(s, scratch[k * lanes + col]);
        acc[e] = s;
      }
      barrier();
    }
  }
  if (!valid || sub != 0) return;
  if (parts > 1) {
    for (int e = 0; e < last - first; ++e) write_partial(part * outputs + o + e, total(acc[e]));
    return;
  }
  uint64_t target = args.target + uint64_t(offset_of(p, o, 5, 5 + 2 * n_kept, n_kept));
  uint64_t out_step = uint64_t(p.v[5 + 2 * n_kept]);
  for (int e = 0; e < last - first; ++e) write_at(target + uint64_t(e) * out_step, total(acc[e]));
}

// Mode 3, stage 1: output `o` over its partials, `outputs` apart; eight
// loads in flight.
void column_partials(Params p, int64_t o) {
  int64_t outputs = p.v[0], parts = p.v[2];
  if (o >= outputs) return;
  uint64_t at = args.source + uint64_t(o) * uint64_t(ACC_BYTES);
  uint64_t step = uint64_t(outputs) * uint64_t(ACC_BYTES);
  Acc acc = start();
  int64_t r = 0;
  for (; r + 8 <= parts; r += 8, at += 8 * step) {
    ACC_T v[8];
    for (int k = 0; k < 8; ++k) v[k] = AccRef(at + uint64_t(k) * step).v;
    for (int k = 0; k < 8; ++k) acc = add(acc, v[k]);
  }
  for (; r < parts; ++r, at += step) acc = add(acc, AccRef(at).v);
  write(p, o, int(p.v[3]), total(acc));
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

  if (args.mode == kRows && args.stage == 0) {
    rows(p, group, tid);
    return;
  }
  if (args.mode == kColumns) {
    if (args.stage == 0) {
      columns(p, group, tid);
    } else {
      column_partials(p, int64_t(group * kWorkgroupSize + tid));
    }
    return;
  }
  if (args.mode == kGeneralOuter) {
    // One invocation per (output, part): consecutive invocations take
    // consecutive outputs (coalesced loads); each sums a `parts`-th of the
    // reduced elements.
    int64_t t = int64_t(group * kWorkgroupSize + tid);
    if (t >= outputs * parts) return;
    int64_t part = t / outputs;
    int64_t o = t - part * outputs;
    // The part's end as r + chunk, as columns() has it: written as
    // min(reduce_size, (part + 1) * chunk), NVIDIA's compiler (driver
    // 580.159.04) made every part run to reduce_size (H100, 2026-12-05).
    int64_t chunk = (reduce_size + parts - 1) / parts;
    int64_t r = part * chunk, end = min(reduce_size, r + chunk);
    uint64_t base = args.source + uint64_t(offset_of(p, o, 5, 5 + n_kept, n_kept));
    Acc acc = start();
    for (; r < end; ++r) {
      acc = add(acc, element(X_load(base + uint64_t(offset_of(p, r, red_sizes, red_sizes + n_red, n_red)))));
    }
    if (parts > 1) {
      write_partial(o * parts + part, total(acc));
    } else {
      write(p, o, n_kept, total(acc));
    }
    return;
  }

  // One workgroup per (output, part); stage 1 (after modes 0, 1 and 2): one
  // per output.
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
  scratch[tid] = total(acc);
  tree(tid, kWorkgroupSize);
  if (tid != 0) return;
  if (parts > 1) {
    write_partial(o * parts + part, scratch[0]);
  } else {
    write(p, o, n_kept, scratch[0]);
  }
}
