// C = act(alpha * A @ B + beta * bias) for products of at most KMAX values of
// K whose B is contiguous along N in 16-byte vectors, such as the MNIST
// benchmark's g2 @ W2 (K = 10 classes, a [128, h] output). Each output value
// is K products, so writing the output is the whole cost: at h = 393216 in
// float16 the v128 tiles ran it at 8.87 TFLOP/s, this kernel at 11.1,
// cuBLAS at 16.5 (H100, 2026-12-06): the tiles pad K = 10 to their step
// of 32 and stage the whole output tile through shared memory.
//
// Invocation t of a workgroup owns VEC consecutive columns (one 16-byte
// vector of each row of B), holds B's K rows of them in registers as float32
// (read once, decoded once: 157 registers in float16 on the H100 with KMAX
// 16, 122 with KMAX 12, which ran g2 @ W2 at 11.6 TFLOP/s against 10.6 on
// 2026-12-07; holding the raw bits and decoding them per row took fewer
// and ran it at 8.61 against 10.7) and walks ROWS rows of A, staged in shared
// memory (A may have any strides), writing each row's VEC values as one
// 16-byte store where the host allows (flag 4 of word 23) and through
// store_sum's epilogue otherwise. float16, bfloat16 and float32, summed in
// float32, one pass: K is too short to split.
#extension GL_EXT_control_flow_attributes : require

#include "common/math.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
} args;

// The products' parameter block (gemm_tiled.comp lists its words).
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

#include "matmul/float_epilogue.glsl"

shared vec4 a_tile[ROWS][KMAX / 4];

void main() {
  Params p = Params(args.meta);
  int64_t M = p.v[4], N = p.v[5], batches = p.v[7];
  int K = int(p.v[6]);  // at most KMAX (the host checks)
  int64_t blocks_n = (N + WORKGROUP * VEC - 1) / (WORKGROUP * VEC), blocks_m = (M + ROWS - 1) / ROWS;
  int64_t group = int64_t(uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x);
  int64_t block_n = group % blocks_n, block_m = (group / blocks_n) % blocks_m, batch = group / (blocks_n * blocks_m);
  if (batch >= batches) return;
  int t = int(gl_LocalInvocationID.x);
  int64_t m0 = block_m * ROWS, n0 = (block_n * WORKGROUP + t) * VEC;

  // A's ROWS x KMAX block, zeros past M and K, so that every row sums KMAX
  // products with the same code.
  uint64_t a = uint64_t(p.v[0]) + uint64_t(batch * p.v[8]) * X_BYTES;
  for (int i = t; i < ROWS * KMAX; i += WORKGROUP) {
    int r = i / KMAX, k = i % KMAX;
    int64_t m = m0 + r;
    a_tile[r][k / 4][k % 4] = m < M && k < K ? X_load(a + uint64_t(m * p.v[9] + k * p.v[10]) * X_BYTES) : 0.0;
  }
  barrier();
  // N is a multiple of VEC (the host checks): a vector lies wholly inside.
  if (n0 >= N) return;

  float bv[KMAX][VEC];
  uint64_t b = uint64_t(p.v[1]) + uint64_t(batch * p.v[11] + n0 * p.v[13]) * X_BYTES;
  [[unroll]] for (int k = 0; k < KMAX; ++k) {
    if (k < K) {
      X_loadv(b + uint64_t(k * p.v[12]) * X_BYTES, bv[k]);
    } else {
      [[unroll]] for (int e = 0; e < VEC; ++e) bv[k][e] = 0.0;
    }
  }

  bool vector_store = (p.v[23] & 4) != 0;
  float alpha = uintBitsToFloat(uint(p.v[20]));
  uint64_t c = uint64_t(p.v[2]) + uint64_t(batch * p.v[14] + n0) * X_BYTES;
  int rows = int(min(int64_t(ROWS), M - m0));
  for (int r = 0; r < rows; ++r) {
    float v[VEC];
    [[unroll]] for (int e = 0; e < VEC; ++e) v[e] = 0.0;
    // Steps of 4 values of K, skipped whole past K (uniform branches).
    [[unroll]] for (int q = 0; q < KMAX / 4; ++q) {
      if (4 * q < K) {
        vec4 av = a_tile[r][q];
        [[unroll]] for (int j = 0; j < 4; ++j)
          [[unroll]] for (int e = 0; e < VEC; ++e) v[e] += av[j] * bv[4 * q + j][e];
      }
    }
    int64_t m = m0 + r;
    if (vector_store) {
      [[unroll]] for (int e = 0; e < VEC; ++e) v[e] *= alpha;
      X_storev(c + uint64_t(m * p.v[15]) * X_BYTES, v);
    } else {
      [[unroll]] for (int e = 0; e < VEC; ++e) store_sum(p, v[e], batch, m, n0 + e);
    }
  }
}
