// Scans along one dimension: cumsum, cumprod, cummax and cummin (values and
// int64 indices), logcumsumexp. The host (csrc/aten/ops/reduce/scans.cpp)
// views the tensors as rows along the scanned dim, the other dims coalesced,
// and picks a strategy:
//  - mode 1, one invocation per row walking it, for short rows or rows too
//    many to need more parallelism;
//  - mode 0, one workgroup per row, a chunk of kPerThread * kWorkgroupSize
//    elements at a time: each invocation scans kPerThread consecutive
//    elements, a Hillis-Steele scan in shared memory combines the invocations'
//    totals, and the chunk's last value carries into the next chunk;
//  - few long rows split into blocks, one workgroup each, in two launches:
//    mode 2 writes each block's total, mode 3 scans each block as mode 0
//    does after the totals of the blocks before it.
// combine(a, b) takes a before b. cummax/cummin keep the later of equal
// values (ties go to the last index) and a NaN until the next NaN, as the
// CPU kernel does.
// (common/base.glsl comes with the variant prelude)

layout(constant_id = 0) const uint kWorkgroupSize = 256;
const uint kPerThread = 4;

#include "common/math.glsl"
#include "reduce/layout.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
  uint64_t source;
  uint64_t target;
  uint64_t indices;   // cummax/cummin: int64
  uint64_t partials;  // modes 2 and 3: the blocks' totals, [rows, blocks]
  uint64_t blocks;    // per row (1 in modes 0 and 1)
  uint64_t block_length;
  uint mode;
} args;

// int64 words: [0] rows, [1] length, [2] n_kept, [3] input, [4] output and
// [5] index byte strides along the scanned dim, then the kept dims' sizes,
// input, output and index strides (bytes), dimension 0 fastest.

#if defined(X_DT_F64)
#define ACC_T double
#define ACC_FLOAT 1
#elif defined(X_DT_F16) || defined(X_DT_BF16) || defined(X_DT_F32)
#define ACC_T float
#define ACC_FLOAT 1
#else
#define ACC_T X_T
#endif

struct State {
  ACC_T v;
  int64_t i;  // cummax/cummin: the index of v; -1 for the identity
};

bool is_nan(ACC_T v) {
#ifdef ACC_FLOAT
  return isnan(v);
#else
  return false;
#endif
}

#if defined(OP_cumsum)
State identity() { return State(ACC_T(0), 0); }
#ifdef X_DT_B8
State combine(State a, State b) { return State(a.v || b.v, b.i); }
#else
State combine(State a, State b) { return State(a.v + b.v, b.i); }
#endif
#elif defined(OP_cumprod)
State identity() { return State(ACC_T(1), 0); }
#ifdef X_DT_B8
State combine(State a, State b) { return State(a.v && b.v, b.i); }
#else
State combine(State a, State b) { return State(a.v * b.v, b.i); }
#endif
#elif defined(OP_cummax) || defined(OP_cummin)
#define WITH_INDICES 1
State identity() { return State(ACC_T(0), -1); }
#ifdef X_DT_B8
#define KEY(x) int(x)
#else
#define KEY(x) (x)
#endif
bool later_wins(ACC_T a, ACC_T b) {
#ifdef OP_cummax
  return KEY(b) >= KEY(a);
#else
  return KEY(b) <= KEY(a);
#endif
}
State combine(State a, State b) {
  if (b.i < 0) return a;
  if (a.i < 0) return b;
  if (is_nan(b.v)) return b;
  if (is_nan(a.v)) return a;
  return later_wins(a.v, b.v) ? b : a;
}
#elif defined(OP_logcumsumexp)
State identity() { return State(ACC_T(-1.0 / 0.0), 0); }
// log(exp(a) + exp(b)) as the CPU kernel computes it, infinities and NaN included.
State combine(State a, State b) {
  ACC_T x = a.v, y = b.v;
  ACC_T lo = isnan(y) ? y : min(x, y);
  ACC_T hi = isnan(y) ? y : max(x, y);
  if (isnan(x)) lo = hi = x;
  if (lo != hi || !(isinf(lo) || isnan(lo))) return State(m_log1p(m_exp(lo - hi)) + hi, 0);
  return a;
}
#else
#error "scan: unknown op"
#endif

shared State chunk[kPerThread * kWorkgroupSize];
shared State totals[kWorkgroupSize];

// A block's total, in the partials: 16 bytes each.
layout(buffer_reference, std430, buffer_reference_align = 8) buffer StateRef { ACC_T v; int64_t i; };

void store(uint64_t target, uint64_t index, State s) {
  X_store(target, X_T(s.v));
#ifdef WITH_INDICES
  RefI64(index).v = s.i;
#endif
}

// Scans elements [first, end) of a row after `carry` in chunks, storing the
// results when `keep`; returns the last one. Every invocation of the
// workgroup calls it alike (it has barriers).
State scan_range(uint64_t source, uint64_t target, uint64_t indices, int64_t in_step, int64_t out_step,
                 int64_t index_step, int64_t first, int64_t end, State carry, bool keep) {
  uint tid = gl_LocalInvocationID.x;
  uint width = kPerThread * kWorkgroupSize;
  for (; first < end; first += int64_t(width)) {
    // Coalesced loads into shared memory, then each invocation's own run.
    for (uint j = 0; j < kPerThread; ++j) {
      int64_t k = first + int64_t(j * kWorkgroupSize + tid);
      chunk[j * kWorkgroupSize + tid] = k < end ? State(ACC_T(X_load(source + uint64_t(k * in_step))), k) : identity();
    }
    barrier();
    State run = chunk[tid * kPerThread];
    for (uint j = 1; j < kPerThread; ++j) {
      run = combine(run, chunk[tid * kPerThread + j]);
      chunk[tid * kPerThread + j] = run;
    }
    totals[tid] = run;
    barrier();
    for (uint shift = 1; shift < kWorkgroupSize; shift <<= 1) {
      State t = totals[tid];
      if (tid >= shift) t = combine(totals[tid - shift], t);
      barrier();
      totals[tid] = t;
      barrier();
    }
    State prefix = tid == 0 ? carry : combine(carry, totals[tid - 1]);
    for (uint j = 0; j < kPerThread; ++j) {
      chunk[tid * kPerThread + j] = combine(prefix, chunk[tid * kPerThread + j]);
    }
    barrier();
    if (keep) {
      for (uint j = 0; j < kPerThread; ++j) {
        int64_t k = first + int64_t(j * kWorkgroupSize + tid);
        if (k < end) store(target + uint64_t(k * out_step), indices + uint64_t(k * index_step), chunk[j * kWorkgroupSize + tid]);
      }
    }
    // Past `end` the chunk holds identities, so its last entry is the total.
    carry = chunk[width - 1];
    barrier();  // the next chunk's loads overwrite what this one stores
  }
  return carry;
}

void main() {
  Params p = Params(args.meta);
  int64_t rows = p.v[0];
  int64_t length = p.v[1];
  int n_kept = int(p.v[2]);
  int64_t in_step = p.v[3], out_step = p.v[4], index_step = p.v[5];
  uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint tid = gl_LocalInvocationID.x;
  int64_t row = args.mode == 1 ? int64_t(group * kWorkgroupSize + tid) : int64_t(group / args.blocks);
  int64_t block = int64_t(group % args.blocks);
  if (row >= rows) return;
  uint64_t source = args.source + uint64_t(offset_of(p, row, 6, 6 + n_kept, n_kept));
  uint64_t target = args.target + uint64_t(offset_of(p, row, 6, 6 + 2 * n_kept, n_kept));
  uint64_t indices = args.indices + uint64_t(offset_of(p, row, 6, 6 + 3 * n_kept, n_kept));

  if (args.mode == 1) {
    State acc = identity();
    for (int64_t k = 0; k < length; ++k) {
      acc = combine(acc, State(ACC_T(X_load(source + uint64_t(k * in_step))), k));
      store(target + uint64_t(k * out_step), indices + uint64_t(k * index_step), acc);
    }
    return;
  }

  int64_t first = block * int64_t(args.block_length);
  int64_t end = min(length, first + int64_t(args.block_length));
  uint64_t totals_of_row = args.partials + uint64_t(row) * args.blocks * 16;
  if (args.mode == 2) {
    State total = scan_range(source, target, indices, in_step, out_step, index_step, first, end, identity(), false);
    if (tid == 0) {
      StateRef slot = StateRef(totals_of_row + uint64_t(block) * 16);
      slot.v = total.v;
      slot.i = total.i;
    }
    return;
  }
  State carry = identity();  // mode 3: the blocks before this one (mode 0: none)
  for (int64_t b = 0; b < block; ++b) {
    StateRef slot = StateRef(totals_of_row + uint64_t(b) * 16);
    carry = combine(carry, State(slot.v, slot.i));
  }
  scan_range(source, target, indices, in_step, out_step, index_step, first, end, carry, true);
}
