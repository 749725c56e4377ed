// C = act(alpha * A @ B + beta * bias) for products with few rows (M up to
// ROWS) whose B is contiguous along K, such as the MNIST benchmark's a @
// W2^T taken transposed (W2 [10, h] @ a^T: a's rows are B's columns) or a
// linear layer on a few inputs (W^T's columns are W's rows). Each value of B
// meets at most ROWS values of A, so the product is as fast as B can be read.
//
// Teams of LANES invocations read B's columns along K together, lane l the
// l-th 16-byte vector of each LANES * CW values of K, so that a team's load
// of a column is one contiguous run of 512 bytes. gemm_rows.comp's first
// form of this (each invocation one column, read along K on its own, 32
// columns apart within a subgroup) read a @ W2^T at 0.65 TB/s: 6.52 TFLOP/s
// in float16 against cuBLAS's 17.2 (H100, 2026-12-06), no faster than the
// v128 tiles. A team owns COLS columns, each lane the partial sums of all
// ROWS rows of them, added across the team at the end through shared
// memory (subgroups differ in size across devices). A's rows of a block of
// K are staged in shared memory in the order the lanes read them, each
// lane's 16-byte reads consecutive with its neighbours' (no bank
// conflicts).
//
// Split-K as in gemm_tiled.comp, but with the workgroups of one split next
// to each other, so that the blocks of B's columns share A's rows through
// the cache: group g takes block g % blocks and split (g / blocks) % splits
// (`chunk` values of K, a multiple of CW), and with more than one split
// writes float32 sums to the workspace [splits, batches, M, N] for
// gemm_splitk_reduce.comp.
#extension GL_EXT_control_flow_attributes : require

#include "common/math.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
} args;

// The products' parameter block (gemm_tiled.comp lists its words).
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

#include "matmul/float_epilogue.glsl"
#include "matmul/raw16.glsl"

const int CW = VEC;  // values of X in 16 bytes
const int LANES = 32, TEAMS = WORKGROUP / LANES;
const int KBLK = LANES * CW;  // values of K a block
const int RED = 8;            // rows added across a team at once
#if ROWS % 8 != 0 || WORKGROUP % 32 != 0  // RED, LANES
#error "ROWS must be a multiple of RED, WORKGROUP of LANES"
#endif
// Value k of a block for lane k / CW at [k % CW][row / 4][k / CW].
shared vec4 a_tile[CW][ROWS / 4][LANES];
shared float partial[TEAMS * RED][LANES + 1];

void main() {
  Params p = Params(args.meta);
  int64_t M = p.v[4], N = p.v[5], K = p.v[6], batches = p.v[7];
  int64_t splits = p.v[24], chunk = p.v[25];
  int64_t blocks = (N + TEAMS * COLS - 1) / (TEAMS * COLS);
  int64_t group = int64_t(uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x);
  int64_t block = group % blocks, split = (group / blocks) % splits, batch = group / (blocks * splits);
  if (batch >= batches) return;
  int t = int(gl_LocalInvocationID.x), team = t / LANES, lane = t % LANES, rows = int(M);
  int64_t n0 = (block * TEAMS + team) * COLS;
  // The split's end as start + chunk (gemm_dot.comp says why).
  int64_t k_begin = split * chunk, k_end = min(K, k_begin + chunk);
  uint64_t a = uint64_t(p.v[0]) + uint64_t(batch * p.v[8]) * X_BYTES;
  uint64_t b[COLS];
  [[unroll]] for (int c = 0; c < COLS; ++c) {
    b[c] = uint64_t(p.v[1]) + uint64_t(batch * p.v[11] + (n0 + c) * p.v[13]) * X_BYTES;
  }

  float acc[COLS][ROWS];
  [[unroll]] for (int c = 0; c < COLS; ++c)[[unroll]] for (int r = 0; r < ROWS; ++r) acc[c][r] = 0.0;
  // The next block's vectors are in flight while a block is staged and
  // multiplied. K and chunk are multiples of CW: a vector lies wholly
  // inside the split or outside.
  uvec4 next[COLS];
#define LOAD_BLOCK(K0) \
  [[unroll]] for (int c = 0; c < COLS; ++c) { \
    int64_t k = (K0) + lane * CW; \
    next[c] = n0 + c < N && k < k_end ? Raw16(b[c] + uint64_t(k) * X_BYTES).v : uvec4(0u); \
  }
  LOAD_BLOCK(k_begin)
  for (int64_t k0 = k_begin; k0 < k_end; k0 += KBLK) {
    uvec4 raw[COLS] = next;
    if (k0 + KBLK < k_end) {
      LOAD_BLOCK(k0 + KBLK)
    }
    barrier();
    for (int i = t; i < KBLK; i += WORKGROUP) {
      int64_t k = k0 + i;
      [[unroll]] for (int q = 0; q < ROWS / 4; ++q) {
        vec4 column = vec4(0.0);
        [[unroll]] for (int j = 0; j < 4; ++j) {
          int r = 4 * q + j;
          if (r < rows && k < k_end) column[j] = X_load(a + uint64_t(r * p.v[9] + k * p.v[10]) * X_BYTES);
        }
        a_tile[i % CW][q][i / CW] = column;
      }
    }
    barrier();
    [[unroll]] for (int e = 0; e < CW; ++e) {
      float bv[COLS];
      [[unroll]] for (int c = 0; c < COLS; ++c) bv[c] = element(raw[c], e);
      // Rows past M add zeros; skipping whole groups of 4 saves their work.
      [[unroll]] for (int q = 0; q < ROWS / 4; ++q) {
        if (4 * q < rows) {
          vec4 av = a_tile[e][q][lane];
          [[unroll]] for (int c = 0; c < COLS; ++c)
            [[unroll]] for (int j = 0; j < 4; ++j) acc[c][4 * q + j] += av[j] * bv[c];
        }
      }
    }
  }

  // Each (column, row)'s LANES partial sums, RED rows of a column at once:
  // invocation s < TEAMS * RED adds row s % RED of team s / RED's.
  uint64_t workspace = uint64_t(p.v[26]);
  [[unroll]] for (int c = 0; c < COLS; ++c) {
    [[unroll]] for (int h = 0; h < ROWS / RED; ++h) {
      barrier();
      [[unroll]] for (int i = 0; i < RED; ++i) partial[team * RED + i][lane] = acc[c][h * RED + i];
      barrier();
      if (t < TEAMS * RED) {
        int64_t n = (block * TEAMS + t / RED) * COLS + c;
        int r = h * RED + t % RED;
        if (r < rows && n < N) {
          float sum = 0.0;
          for (int l = 0; l < LANES; ++l) sum += partial[t][l];
          if (workspace != 0) {
            RefF32(workspace + uint64_t(((split * batches + batch) * M + r) * N + n) * 4u).v = sum;
          } else {
            store_sum(p, sum, batch, r, n);
          }
        }
      }
    }
  }
}
