// argmax / argmin (and max / min along a dim, which also write the values):
// one workgroup per output over the reduced elements (layout words as in
// reduce.comp), a tree of (value, index) pairs. Ties go to the smallest
// index and NaN counts as the extreme, as in PyTorch.

layout(constant_id = 0) const uint kWorkgroupSize = 256;

layout(push_constant) uniform Args {
  uint64_t meta;
  uint64_t source;
  uint64_t values;   // 0 for argmax/argmin
  uint64_t indices;  // int64
  uint64_t index_strides;  // word offset in meta of the indices' kept strides (bytes)
} args;

#include "reduce/layout.glsl"

#ifdef X_DT_B8
#define KEY_T int
#define KEY(x) int(x)
#else
#define KEY_T X_T
#define KEY(x) (x)
#endif

shared KEY_T best_value[kWorkgroupSize];
shared int64_t best_index[kWorkgroupSize];

bool is_nan(KEY_T v) {
#if defined(X_DT_F16) || defined(X_DT_BF16) || defined(X_DT_F32) || defined(X_DT_F64)
  return isnan(v);
#else
  return false;
#endif
}

// Does (v, i) beat (w, j)?
bool beats(KEY_T v, int64_t i, KEY_T w, int64_t j) {
  if (j < 0) return i >= 0;
  if (i < 0) return false;
  if (is_nan(v) != is_nan(w)) return is_nan(v);
#ifdef OP_argmax
  if (v != w && !is_nan(v)) return v > w;
#else
  if (v != w && !is_nan(v)) return v < w;
#endif
  return i < j;
}

void main() {
  Params p = Params(args.meta);
  int64_t outputs = p.v[0];
  int64_t reduce_size = p.v[1];
  int n_kept = int(p.v[3]);
  int n_red = int(p.v[4]);
  int red_sizes = 5 + 3 * n_kept;
  int64_t o = int64_t(uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x);
  if (o >= outputs) return;
  uint tid = gl_LocalInvocationID.x;
  uint64_t base = args.source + uint64_t(offset_of(p, o, 5, 5 + n_kept, n_kept));
  KEY_T value = KEY_T(0);
  int64_t index = -1;
  for (int64_t r = tid; r < reduce_size; r += kWorkgroupSize) {
    KEY_T v = KEY(X_load(base + uint64_t(offset_of(p, r, red_sizes, red_sizes + n_red, n_red))));
    if (beats(v, r, value, index)) {
      value = v;
      index = r;
    }
  }
  best_value[tid] = value;
  best_index[tid] = index;
  barrier();
  for (uint s = kWorkgroupSize / 2; s > 0; s >>= 1) {
    if (tid < s && beats(best_value[tid + s], best_index[tid + s], best_value[tid], best_index[tid])) {
      best_value[tid] = best_value[tid + s];
      best_index[tid] = best_index[tid + s];
    }
    barrier();
  }
  if (tid != 0) return;
  // The index is counted along the reduced dims (a single dim for max.dim).
  RefI64(args.indices + uint64_t(offset_of(p, o, 5, int(args.index_strides), n_kept))).v = best_index[0];
  if (args.values != 0) {
    X_store(args.values + uint64_t(offset_of(p, o, 5, 5 + 2 * n_kept, n_kept)), X_T(best_value[0]));
  }
}
