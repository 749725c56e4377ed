// The second step of a split-K product (gemm_coop.comp, gemm_tiled.comp): C =
// act(alpha * (sum of the splits' float32 partial products) + beta * bias),
// one invocation per element of C, any output strides. Same parameter block
// as the products.

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
// took 17.7 us by GPU timestamps, 0.85 TB/s). The tile-less kernels split
// small outputs up to 512 ways (a @ W2^T: 1,280 sums), where each round
// costs a memory latency: 32 loads a round, the last one's masked (a @ W2^T
// on the H100 read the same with 8, 6.66 TFLOP/s: not its limit).
const int ROUND = 32;

void main() {
  Params p = Params(args.meta);
  int64_t M = p.v[4], N = p.v[5], batches = p.v[7], splits = p.v[24];
  int64_t i = int64_t(global_index()), total = batches * M * N;
  if (i >= total) return;
  // 32-bit division where the output allows it (int64 division is emulated).
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
  uint64_t at = uint64_t(p.v[26]) + uint64_t(i) * 4u, apart = uint64_t(total) * 4u;
  float part[ROUND];
  [[unroll]] for (int r = 0; r < ROUND; ++r) part[r] = 0.0;
  for (int64_t s = 0; s < splits; s += ROUND) {
    [[unroll]] for (int r = 0; r < ROUND; ++r) {
      if (s + r < splits) part[r] += RefF32(at + uint64_t(r) * apart).v;
    }
    at += uint64_t(ROUND) * apart;
  }
  float sum = 0.0;
  [[unroll]] for (int r = 0; r < ROUND; ++r) sum += part[r];
  store_sum(p, sum, batch, m, n);
}
