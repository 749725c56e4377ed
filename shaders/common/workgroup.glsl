// Workgroup-wide reductions through shared memory, for kernels that give one
// workgroup a row. Every invocation of the workgroup must call them. WG_T is
// the value type (float unless the includer defines it, e.g. double).
#ifndef WG_T
#define WG_T float
#endif
layout(constant_id = 0) const uint kWorkgroupSize = 256;

shared WG_T workgroup_scratch[kWorkgroupSize];

WG_T max_nan(WG_T x, WG_T y) { return isnan(x) || x > y ? x : y; }

// op 0: sum, op 1: max (NaN propagating).
WG_T workgroup_reduce(WG_T value, int op) {
  uint tid = gl_LocalInvocationID.x;
  barrier();  // the scratch may still be read by the previous call
  workgroup_scratch[tid] = value;
  barrier();
  for (uint s = kWorkgroupSize / 2; s > 0; s >>= 1) {
    if (tid < s) {
      WG_T other = workgroup_scratch[tid + s];
      workgroup_scratch[tid] = op == 0 ? workgroup_scratch[tid] + other : max_nan(workgroup_scratch[tid], other);
    }
    barrier();
  }
  return workgroup_scratch[0];
}

WG_T workgroup_sum(WG_T value) { return workgroup_reduce(value, 0); }
WG_T workgroup_max(WG_T value) { return workgroup_reduce(value, 1); }
