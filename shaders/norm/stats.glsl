// Shared by the batch and group norm kernels: the input viewed as [N, C, HW]
// with one element stride per dimension (the host gives x, dy and the outputs
// that layout), and Welford's one-pass mean and variance, merged across the
// workgroup as Chan et al. do, which stays accurate where sum(x^2) - n mean^2
// would cancel. Include after common/workgroup.glsl (WG_T, kWorkgroupSize).

layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Shape {
  int64_t n, c, hw, groups;
  int64_t stride_n, stride_c, stride_hw;
};

// A float parameter the host passed as the raw bits of WG_T.
WG_T from_bits(uint64_t bits) {
#ifdef X_DT_F64
  return uint64BitsToDouble(bits);
#else
  return uintBitsToFloat(uint(bits));
#endif
}

// A block of elements j = q * hw + k: q, by 32-bit division where it fits
// (several times cheaper than 64-bit on GPUs).
uint64_t outer_index(uint64_t j, uint64_t hw) {
  if (j <= 0xFFFFFFFFul && hw <= 0xFFFFFFFFul) return uint64_t(uint(j) / uint(hw));
  return j / hw;
}

// The offset of element j of a block whose q steps by outer_stride.
int64_t block_offset(uint64_t j, Shape s, int64_t outer_stride) {
  uint64_t q = outer_index(j, uint64_t(s.hw));
  return int64_t(q) * outer_stride + int64_t(j - q * uint64_t(s.hw)) * s.stride_hw;
}

struct Welford {
  WG_T n, mean, m2;  // count, mean, sum of squared deviations
};

void welford_add(inout Welford w, WG_T x) {
  w.n += WG_T(1);
  WG_T d = x - w.mean;
  w.mean += d / w.n;
  w.m2 += d * (x - w.mean);
}

Welford welford_merge(Welford a, Welford b) {
  if (b.n == WG_T(0)) return a;
  if (a.n == WG_T(0)) return b;
  WG_T n = a.n + b.n;
  WG_T d = b.mean - a.mean;
  WG_T f = b.n / n;
  return Welford(n, a.mean + d * f, a.m2 + b.m2 + d * d * a.n * f);
}

shared WG_T welford_n[kWorkgroupSize];
shared WG_T welford_mean[kWorkgroupSize];
shared WG_T welford_m2[kWorkgroupSize];

// The statistics of the whole workgroup's elements, in every invocation.
Welford workgroup_welford(Welford w) {
  uint tid = gl_LocalInvocationID.x;
  barrier();  // the scratch may still be read by the previous call
  welford_n[tid] = w.n;
  welford_mean[tid] = w.mean;
  welford_m2[tid] = w.m2;
  barrier();
  for (uint s = kWorkgroupSize / 2; s > 0; s >>= 1) {
    if (tid < s) {
      Welford a = Welford(welford_n[tid], welford_mean[tid], welford_m2[tid]);
      Welford b = Welford(welford_n[tid + s], welford_mean[tid + s], welford_m2[tid + s]);
      Welford m = welford_merge(a, b);
      welford_n[tid] = m.n;
      welford_mean[tid] = m.mean;
      welford_m2[tid] = m.m2;
    }
    barrier();
  }
  return Welford(welford_n[0], welford_mean[0], welford_m2[0]);
}
