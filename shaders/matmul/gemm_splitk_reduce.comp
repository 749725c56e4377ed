// The second step of a split-K product (gemm_coop.comp, gemm_tiled.comp): C =
// act(alpha * (sum of the splits' float32 partial products) + beta * bias),
// any output strides. Same parameter block as the products, and word 27.

#extension GL_EXT_control_flow_attributes : require

#include "common/math.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
} args;

layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

#include "matmul/float_epilogue.glsl"

// Splits summed per round, into as many independent sums: with one sum the
// loop waited out each load before issuing the next (H200, the MNIST
// benchmark's g @ W at h = 65536: 37 splits of a 128 x 784 output, 15 MB,
// took 17.7 us by GPU timestamps, 0.85 TB/s).
const int ROUND = 32;

// LANES (word 27, a power of two, at most WORKGROUP / 32) invocations share
// each sum, taking every LANES-th split, and add their parts through shared
// memory. A workgroup takes WORKGROUP / LANES consecutive sums, and its
// invocation t the sum t % (WORKGROUP / LANES) in lane t / (WORKGROUP /
// LANES), so that a subgroup reads 32 consecutive sums of one split, whole
// 128-byte lines. The tile-less kernels split small outputs up to 1,024
// ways. H100, kernel_times.py, a @ W2^T of the MNIST benchmark (1,280 sums
// of 1,024 splits) / g @ W at h = 393216 (100,352 sums of 37 splits):
// - one invocation a sum: 30.8 us / -, 16 rounds of memory latency;
// - 32 adjacent invocations a sum (each reading 4 bytes of a different
//   32-byte sector), workgroups of 64: 16.4 / not timed;
// - as here, workgroups of 256, at most 8 lanes: 22.5 / 19.2 us (fewer
//   loads in flight);
// - as here, workgroups of 1,024 (the gemm variant), at most 32 lanes:
//   13.3 / 14.8 us. Devices that allow fewer invocations a workgroup take
//   the gemm256 variant.
// Sum i (of `total`, [batches, M, N] in order) through store_sum, with
// 32-bit division where the output allows it (int64 division is emulated).
void store_at(Params p, float sum, int64_t i, int64_t M, int64_t N, int64_t total) {
  int64_t n, m, batch;
  if (total <= 0x7FFFFFFF) {
    uint u = uint(i), un = uint(N), um = uint(M);
    n = int64_t(u % un);
    m = int64_t((u / un) % um);
    batch = int64_t(u / (un * um));
  } else {
    n = i % N;
    m = (i / N) % M;
    batch = i / (M * N);
  }
  store_sum(p, sum, batch, m, n);
}

#if SUMS4
// The sums4 variant: one invocation adds four consecutive sums, split by
// split as 16-byte loads (the host sends a multiple of 4 sums and an aligned
// workspace, and no lanes), for outputs of many sums: 1024^3 float16 has
// 1M sums of 4 splits, which the gemm variant's 1,024-invocation
// workgroups (58 registers: one an SM) took in 7.75 waves, each waiting out
// the memory's latency, 35.1 us against the product's own 25.0 (H100,
// 2026-12-07, kernel_times.py).
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer RefVec4 { vec4 v; };
const int ROUND4 = 8;

void main() {
  Params p = Params(args.meta);
  int64_t M = p.v[4], N = p.v[5], batches = p.v[7], splits = p.v[24];
  uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  int64_t first = (int64_t(group) * WORKGROUP + int64_t(gl_LocalInvocationID.x)) * 4, total = batches * M * N;
  if (first >= total) return;
  uint64_t apart = uint64_t(total) * 4u, at = uint64_t(p.v[26]) + uint64_t(first) * 4u;
  vec4 part[ROUND4];
  [[unroll]] for (int r = 0; r < ROUND4; ++r) part[r] = vec4(0.0);
  for (int64_t s = 0; s < splits; s += ROUND4) {
    [[unroll]] for (int r = 0; r < ROUND4; ++r) {
      if (s + r < splits) part[r] += RefVec4(at + uint64_t(r) * apart).v;
    }
    at += uint64_t(ROUND4) * apart;
  }
  vec4 sum = vec4(0.0);
  [[unroll]] for (int r = 0; r < ROUND4; ++r) sum += part[r];
  [[unroll]] for (int e = 0; e < 4; ++e) store_at(p, sum[e], first + e, M, N, total);
}
#else
shared float parts[WORKGROUP];

void main() {
  Params p = Params(args.meta);
  int64_t M = p.v[4], N = p.v[5], batches = p.v[7], splits = p.v[24];
  int lanes = int(p.v[27]), sums = WORKGROUP / lanes, t = int(gl_LocalInvocationID.x);
  int lane = t / sums;
  uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  int64_t i = int64_t(group) * sums + t % sums, total = batches * M * N;
  bool live = i < total;  // no early return: the barrier below is the workgroup's
  float sum = 0.0;
  if (live) {
    uint64_t apart = uint64_t(total) * 4u, at = uint64_t(p.v[26]) + uint64_t(i) * 4u + uint64_t(lane) * apart;
    float part[ROUND];
    [[unroll]] for (int r = 0; r < ROUND; ++r) part[r] = 0.0;
    for (int64_t s = lane; s < splits; s += ROUND * lanes) {
      [[unroll]] for (int r = 0; r < ROUND; ++r) {
        if (s + r * lanes < splits) part[r] += RefF32(at + uint64_t(r * lanes) * apart).v;
      }
      at += uint64_t(ROUND * lanes) * apart;
    }
    [[unroll]] for (int r = 0; r < ROUND; ++r) sum += part[r];
  }
  if (lanes > 1) {
    parts[t] = sum;
    barrier();
    if (lane == 0) {
      for (int l = 1; l < lanes; ++l) sum += parts[t + l * sums];
    }
  }
  if (!live || lane != 0) return;
  store_at(p, sum, i, M, N, total);
}
#endif
