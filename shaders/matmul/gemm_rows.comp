// C = act(alpha * A @ B + beta * bias) for products with few rows (M up to
// ROWS) whose B is contiguous along N: each value of B meets at most ROWS
// values of A, so the product is as fast as B can be read. Such as the
// MNIST benchmark's g2^T @ a (10 classes, N = h) or, transposed by the host,
// a few columns of a product whose A is contiguous along M (gemm.cpp's
// thin_kernel). float16, bfloat16 and float32, summed in float32.
//
// The 128x128 tiles spend 118 of every 128 rows of their work on padding
// there, at 255 registers an invocation (H100, g2^T @ a at h = 393216, float16:
// 5.65 TFLOP/s on s128, cuBLAS 17.3; this kernel 8.74 with 16 rows, 15.1
// with 12: gemm.cpp). Here invocation t of a workgroup owns CW consecutive
// columns (one 16-byte vector of B per row of K, CW = 16 / X_BYTES) and
// all ROWS rows of them in registers. A's rows of a block of WORKGROUP
// values of K are staged in shared memory once per workgroup (A may have
// any strides), read back as vec4s that every invocation shares. B is read
// KB rows at a time, as raw bits decoded at use, so that KB vector loads are
// in flight per invocation.
//
// B_KMAJOR (the r16k variant): B contiguous along K instead, such as the
// MNIST benchmark's a @ W2^T taken transposed (W2 [10, h] @ a^T: a's rows
// are B's columns) or a linear layer on a few inputs (W^T's columns are W's
// rows). Invocation t then owns one column and reads it along K, CW values
// of K a vector, so B is still read once (gemm.cpp has its figures). Teams
// of 32 invocations reading a column together (512 contiguous bytes a load,
// partial sums added across the team through shared memory, 256
// invocations a workgroup) lost to this on every product it served (H100,
// 2026-12-06, float16: a @ W2^T 3.41 against 6.52 TFLOP/s, linear 16 x 4096
// -> 14336 7.16 against 11.8). So did, on a @ W2^T against r16k's 6.36 (H100,
// 2026-12-06, float16): issuing each group's loads before multiplying the
// previous one (6.25), two or four columns an invocation (5.78; 3.86
// prefetching), and 16 or 32 vectors of a column in flight (5.45, 2.82).
// Keep the nested loops below: one flattened loop over groups, staging A
// when a group starts a block, ran g2^T @ a (r16) at 1.46 TFLOP/s against
// 9.8. Slices of K within a workgroup lost too (its invocations in up to 4
// slices, each taking every 4th group of KB rows, their sums added in
// shared memory), meant for g2^T @ a at h = 131072 (256 workgroups, about
// 4 warps an SM: 63 us against cuBLAS's 38): 80 us there and 115 against
// 77 at h = 393216 where it took one slice (H100, 2026-12-07,
// step_kernels.py), at 175 registers, which left 5 workgroups an SM
// instead of 6 (the slice count a push constant, the handed sums in shared
// memory).
//
// Split-K as in gemm_tiled.comp: group g takes split g % splits (`chunk`
// values of K), and with more than one split writes float32 sums to the
// workspace [splits, batches, M, N] for gemm_splitk_reduce.comp.
#extension GL_EXT_control_flow_attributes : require

#include "common/math.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
} args;

// The products' parameter block (gemm_tiled.comp lists its words; flag 4 of
// word 23: out may be written in 16-byte vectors).
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

#include "matmul/float_epilogue.glsl"
#include "matmul/raw_vector.glsl"

// The narrow form sets LOAD_BYTES and ROWS_IN_FLIGHT (variants.toml).
#ifndef LOAD_BYTES
#define LOAD_BYTES 16
#define ROWS_IN_FLIGHT 8
#endif
#if LOAD_BYTES == 4
#define RAW uint
#define RAW_REF Raw4
#else
#define RAW uvec4
#define RAW_REF Raw16
#endif

const int CW = VEC;  // values of X in 16 bytes
#if B_KMAJOR
const int KB = 8;   // vectors of B loaded at once
const int OWN = 1;  // columns per invocation
#define ACC(r, c) acc[r]
#else
// LOAD_BYTES of B's rows an invocation (its columns), KB rows of them
// loaded at once: r12/r16 16 bytes and 8 rows; the narrow form r12b4 4
// bytes and 32 rows, so that an invocation walks K = 128 in 4 rounds of
// loads instead of 16, in 96 registers. H100, 2026-12-07 (gemm_tiles.py,
// g2^T @ a in float16, TFLOP/s): r12b4 5.06 / 9.04 / 9.76 against r12's
// (early loads, 177 registers) 4.31 / 8.61 / 10.3 at h = 65536 / 131072 /
// 393216, cuBLAS 9.48 / 16.2 / 17.4; gemm.cpp takes it where r12 would
// run fewer than kNarrowBelow workgroups.
const int KB = ROWS_IN_FLIGHT;
const int OWN = LOAD_BYTES / X_BYTES;
// The narrow form loads a block's first rows of B while A is staged. r12
// in that order (and with these float accumulators) held 177 registers
// instead of 168, 5 workgroups an SM instead of 6, and g2^T @ a at h =
// 393216 (768 workgroups: one wave at 6 an SM) ran at 10.3 TFLOP/s against
// the earlier 13.4 (H100s, 2026-12-07, two runs; cuBLAS 17.4 and 17.2).
const bool EARLY_B = LOAD_BYTES < 16;
#define ACC(r, c) acc[r][c]
#endif
shared vec4 a_tile[WORKGROUP][ROWS / 4];

#if !B_KMAJOR
// Rows kk.. kk + KB - 1 of a block of B (`depth` rows from b), zeros past
// the block and for an invocation past N.
void load_rows(out RAW raw[KB], uint64_t b, uint64_t b_row, int kk, int depth, bool mine) {
  [[unroll]] for (int i = 0; i < KB; ++i) {
    raw[i] = mine && kk + i < depth ? RAW_REF(b + uint64_t(kk + i) * b_row).v : RAW(0u);
  }
}
#endif

void main() {
  Params p = Params(args.meta);
  int64_t M = p.v[4], N = p.v[5], K = p.v[6], batches = p.v[7];
  int64_t splits = p.v[24], chunk = p.v[25];
  int64_t blocks = (N + WORKGROUP * OWN - 1) / (WORKGROUP * OWN);
  int64_t group = int64_t(uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x);
  int64_t split = group % splits, block = (group / splits) % blocks, batch = group / (splits * blocks);
  if (batch >= batches) return;
  int t = int(gl_LocalInvocationID.x), rows = int(M);
  int64_t n0 = (block * WORKGROUP + t) * OWN;
  bool mine = n0 < N;  // N-major: N is a multiple of CW (the host checks)
  // The split's end as start + chunk (gemm_dot.comp says why).
  int64_t k_begin = split * chunk, k_end = min(K, k_begin + chunk);
  uint64_t a = uint64_t(p.v[0]) + uint64_t(batch * p.v[8]) * X_BYTES;
  uint64_t b = uint64_t(p.v[1]) + uint64_t(batch * p.v[11] + k_begin * p.v[12] + n0 * p.v[13]) * X_BYTES;
  uint64_t b_row = uint64_t(p.v[12]) * X_BYTES;

#if B_KMAJOR
  float acc[ROWS];
  [[unroll]] for (int r = 0; r < ROWS; ++r) acc[r] = 0.0;
#else
  float acc[ROWS][OWN];
  [[unroll]] for (int r = 0; r < ROWS; ++r)[[unroll]] for (int c = 0; c < OWN; ++c) acc[r][c] = 0.0;
#endif
  for (int64_t k0 = k_begin; k0 < k_end; k0 += WORKGROUP) {
    int depth = int(min(int64_t(WORKGROUP), k_end - k0));
#if !B_KMAJOR
    RAW raw[KB];
    if (EARLY_B) load_rows(raw, b, b_row, 0, depth, mine);
#endif
    // Invocation t stages A[:, k0 + t].
    barrier();
    int64_t k = k0 + t;
    [[unroll]] for (int q = 0; q < ROWS / 4; ++q) {
      vec4 column = vec4(0.0);
      [[unroll]] for (int i = 0; i < 4; ++i) {
        int r = 4 * q + i;
        if (r < rows && k < k_end) column[i] = X_load(a + uint64_t(r * p.v[9] + k * p.v[10]) * X_BYTES);
      }
      a_tile[t][q] = column;
    }
    barrier();
#if B_KMAJOR
    // depth is a multiple of CW (K and chunk are), and A's values past it
    // were staged as zeros.
    for (int kk = 0; kk < depth; kk += KB * CW) {
      uvec4 raw[KB];
      [[unroll]] for (int i = 0; i < KB; ++i) {
        raw[i] = mine && kk + i * CW < depth ? Raw16(b + uint64_t(kk + i * CW) * X_BYTES).v : uvec4(0u);
      }
      [[unroll]] for (int i = 0; i < KB; ++i) {
        [[unroll]] for (int e = 0; e < CW; ++e) {
          float bv = element(raw[i], e);
          [[unroll]] for (int q = 0; q < ROWS / 4; ++q) {
            if (4 * q < rows) {
              vec4 av = a_tile[kk + i * CW + e][q];
              [[unroll]] for (int j = 0; j < 4; ++j) acc[4 * q + j] += av[j] * bv;
            }
          }
        }
      }
    }
#else
    for (int kk = 0; kk < depth; kk += KB) {
      if (kk > 0 || !EARLY_B) load_rows(raw, b, b_row, kk, depth, mine);
      [[unroll]] for (int i = 0; i < KB; ++i) {
        float bv[OWN];
        [[unroll]] for (int e = 0; e < OWN; ++e) bv[e] = element(raw[i], e);
        // Rows past M add zeros; skipping whole groups of 4 saves their work.
        [[unroll]] for (int q = 0; q < ROWS / 4; ++q) {
          if (4 * q < rows) {
            vec4 av = a_tile[kk + i][q];
            [[unroll]] for (int j = 0; j < 4; ++j)
              [[unroll]] for (int c = 0; c < OWN; ++c) acc[4 * q + j][c] += av[j] * bv[c];
          }
        }
      }
    }
#endif
    b += uint64_t(WORKGROUP) * b_row;
  }
  if (!mine) return;

  // Whole 16-byte vectors of out only (the narrow forms store value by value).
  bool vector_store = (p.v[23] & 4) != 0 && splits == 1 && OWN == CW;
  // No early exit from these loops (gemm_tiled.comp's epilogue says why).
  [[unroll]] for (int r = 0; r < ROWS; ++r) {
    if (r >= rows) {
    } else if (p.v[26] != 0) {
      uint64_t at = uint64_t(p.v[26]) + uint64_t(((split * batches + batch) * M + r) * N + n0) * 4u;
      [[unroll]] for (int c = 0; c < OWN; ++c) RefF32(at + uint64_t(c) * 4u).v = ACC(r, c);
#if !B_KMAJOR
    } else if (vector_store) {
      float v[VEC];
      [[unroll]] for (int c = 0; c < CW; ++c) v[c] = uintBitsToFloat(uint(p.v[20])) * ACC(r, c % OWN);
      X_storev(uint64_t(p.v[2]) + uint64_t(batch * p.v[14] + r * p.v[15] + n0) * X_BYTES, v);
#endif
    } else {
      [[unroll]] for (int c = 0; c < OWN; ++c) store_sum(p, ACC(r, c), batch, r, n0 + c);
    }
  }
}
