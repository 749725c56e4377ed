// var and std (with the mean beside them for var_mean / std_mean) of any set
// of dimensions, with the layout words and the two strategies of reduce.comp.
// Every invocation keeps Welford's running (count, mean, M2) over its
// elements; those merge pairwise by Chan's formula (the tree in shared
// memory, and stage 1 over the parts' partials), so no sum of squares of
// large values is ever subtracted from another. The elements are shifted by
// the output's first element first: a mean far from zero (1e4 + noise in
// float) would otherwise round the running mean, and so every deviation, to
// its own ulp. Partials are four words: count, shifted mean, M2, the shift.
// (common/base.glsl comes with the variant prelude)

layout(constant_id = 0) const uint kWorkgroupSize = 256;

#include "reduce/layout.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;    // reduce.comp's words, then the mean output's kept strides (bytes)
  uint64_t source;  // stage 0: the input; stage 1: the partials
  uint64_t target;  // var or std, or the partials when parts > 1
  uint64_t mean;    // 0 when the mean is not wanted
  uint64_t correction;  // as bits of ACC_T
  uint mode;
  uint stage;
} args;

#ifdef X_DT_F64
#define ACC_T double
#define ACC_BYTES 8
layout(buffer_reference, std430, buffer_reference_align = 8) buffer AccRef { double v; };
ACC_T correction() { return uint64BitsToDouble(args.correction); }
#else
#define ACC_T float
#define ACC_BYTES 4
layout(buffer_reference, std430, buffer_reference_align = 4) buffer AccRef { float v; };
ACC_T correction() { return uintBitsToFloat(uint(args.correction)); }
#endif

struct Stats {
  ACC_T n, mean, m2;
};

Stats push(Stats s, ACC_T x) {
  s.n += ACC_T(1);
  ACC_T d = x - s.mean;
  s.mean += d / s.n;
  s.m2 += d * (x - s.mean);
  return s;
}

Stats merge(Stats a, Stats b) {
  if (b.n == ACC_T(0)) return a;
  if (a.n == ACC_T(0)) return b;
  ACC_T n = a.n + b.n;
  ACC_T d = b.mean - a.mean;
  ACC_T f = b.n / n;
  return Stats(n, a.mean + d * f, a.m2 + b.m2 + d * d * a.n * f);
}

shared ACC_T scratch_n[kWorkgroupSize];
shared ACC_T scratch_mean[kWorkgroupSize];
shared ACC_T scratch_m2[kWorkgroupSize];

void write(Params p, int64_t o, int n_kept, int n_red, Stats s, ACC_T shift, int64_t parts, int64_t part) {
  if (parts > 1) {
    uint64_t at = args.target + uint64_t(o * parts + part) * uint64_t(4 * ACC_BYTES);
    AccRef(at).v = s.n;
    AccRef(at + ACC_BYTES).v = s.mean;
    AccRef(at + 2 * ACC_BYTES).v = s.m2;
    AccRef(at + 3 * ACC_BYTES).v = shift;
    return;
  }
  // M2 / max(0, N - correction), PyTorch's rule: 0/0 is NaN, M2/0 infinity.
  ACC_T divisor = max(ACC_T(0), ACC_T(p.v[1]) - correction());
  ACC_T value = divisor > ACC_T(0) ? s.m2 / divisor : (s.m2 > ACC_T(0) ? ACC_T(1.0 / 0.0) : ACC_T(0.0 / 0.0));
#ifdef OP_std
  value = sqrt(value);
#endif
  X_store(args.target + uint64_t(offset_of(p, o, 5, 5 + 2 * n_kept, n_kept)), X_T(value));
  if (args.mean != 0) {
    int mean_strides = 5 + 3 * n_kept + 2 * n_red;
    X_store(args.mean + uint64_t(offset_of(p, o, 5, mean_strides, n_kept)), X_T(shift + s.mean));
  }
}

Stats partial(uint64_t base, int64_t r) {
  uint64_t at = base + uint64_t(r) * uint64_t(4 * ACC_BYTES);
  return Stats(AccRef(at).v, AccRef(at + ACC_BYTES).v, AccRef(at + 2 * ACC_BYTES).v);
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
  Stats s = Stats(ACC_T(0), ACC_T(0), ACC_T(0));

  if (args.mode == 1) {  // one invocation per (output, part), as in reduce.comp
    int64_t t = int64_t(group * kWorkgroupSize + tid);
    if (t >= outputs * parts) return;
    int64_t part = t / outputs;
    int64_t o = t - part * outputs;
    int64_t chunk = (reduce_size + parts - 1) / parts;
    int64_t r = part * chunk, end = min(reduce_size, r + chunk);  // see reduce.comp
    uint64_t base = args.source + uint64_t(offset_of(p, o, 5, 5 + n_kept, n_kept));
    ACC_T shift = ACC_T(X_load(base));
    for (; r < end; ++r) {
      s = push(s, ACC_T(X_load(base + uint64_t(offset_of(p, r, red_sizes, red_sizes + n_red, n_red)))) - shift);
    }
    write(p, o, n_kept, n_red, s, shift, parts, part);
    return;
  }

  int64_t o = args.stage == 1 ? int64_t(group) : int64_t(group) / parts;
  int64_t part = int64_t(group) - o * parts;
  if (o >= outputs) return;
  ACC_T shift;
  if (args.stage == 1) {
    uint64_t base = args.source + uint64_t(o * parts) * uint64_t(4 * ACC_BYTES);
    shift = AccRef(base + 3 * ACC_BYTES).v;
    for (int64_t r = tid; r < parts; r += kWorkgroupSize) s = merge(s, partial(base, r));
    parts = 1;
  } else {
    uint64_t base = args.source + uint64_t(offset_of(p, o, 5, 5 + n_kept, n_kept));
    shift = ACC_T(X_load(base));
    int64_t step = int64_t(kWorkgroupSize) * parts;
    for (int64_t r = part * kWorkgroupSize + tid; r < reduce_size; r += step) {
      s = push(s, ACC_T(X_load(base + uint64_t(offset_of(p, r, red_sizes, red_sizes + n_red, n_red)))) - shift);
    }
  }
  scratch_n[tid] = s.n;
  scratch_mean[tid] = s.mean;
  scratch_m2[tid] = s.m2;
  barrier();
  for (uint h = kWorkgroupSize / 2; h > 0; h >>= 1) {
    if (tid < h) {
      Stats m = merge(Stats(scratch_n[tid], scratch_mean[tid], scratch_m2[tid]),
                      Stats(scratch_n[tid + h], scratch_mean[tid + h], scratch_m2[tid + h]));
      scratch_n[tid] = m.n;
      scratch_mean[tid] = m.mean;
      scratch_m2[tid] = m.m2;
    }
    barrier();
  }
  if (tid == 0) write(p, o, n_kept, n_red, Stats(scratch_n[0], scratch_mean[0], scratch_m2[0]), shift, parts, part);
}
