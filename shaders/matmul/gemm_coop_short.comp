// C = alpha * A @ B for products with K of at most 128, float16 or bfloat16
// summed in float32 on tensor cores (VK_KHR_cooperative_matrix, 16x16x16),
// both operands vector-loadable and C's rows written in 16-byte vectors
// (gemm.cpp checks), such as the MNIST benchmark's g^T @ x (K = 128, a
// 393216 x 784 output) or attention's q @ k^T (K = 64).
//
// Why: such products are bound by writing C (g^T @ x writes 617 MB, 184 us
// at the H100's 3.35 TB/s; cuBLAS takes 274 us), and v128 runs them in
// rounds: its two workgroups an SM (255 registers) start together, wait
// 3.6 us for their first loads, multiply 2.9 us, then write for 2.3 us
// (benchmark/coop_phases.py), so loads, multiplies and stores take turns
// across the whole GPU. Here each workgroup stays resident and walks a
// column of output tiles: it keeps its 64 columns of B in shared memory,
// and the next tile's A is read into registers while the current tile is
// multiplied and written, with few enough registers (64 x 64 tiles, a
// 32 x 32 block a subgroup) for several workgroups an SM.
//
// Workgroup g takes tile column g % tiles_n and tiles (batch, row) r, r +
// R, ... of that column (r = g / tiles_n, R = groups / tiles_n: parameter
// word 24), reloading B when the batch changes. Every tile takes all of K
// at once, zeros past K in shared memory up to its multiple of 16.
// A_KMAJOR / B_KMAJOR fix each operand's contiguous dimension as in
// gemm_coop.comp, and each is kept in shared memory in that orientation.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : require
#if defined(X_DT_BF16)
#extension GL_EXT_bfloat16 : require
#define ELEM bfloat16_t
#else
#define ELEM float16_t
#endif

#include "common/math.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
} args;

// The products' parameter block (gemm_tiled.comp lists its words): a, b, c
// addresses (0-2); M, N, K, batches (4-7); batch/row/col strides of a
// (8-10), b (11-13) and c (14-16); alpha as float bits (20); word 24: R,
// the tile rows' stride between one workgroup's tiles.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec8 { uvec4 v; };

#if WORKGROUP != 128
#error "four subgroups of 32, a 32 x 32 block of the 64 x 64 tile each"
#endif
const int T = 16, BT = 64, KMAX = 128, UNIT = 8;  // UNIT: halves a uvec4
// An operand's stage (halves): BT rows of KMAX (+ 8) when K is contiguous,
// else KMAX rows of BT (+ 8); the padding keeps a fragment's 8 rows on
// distinct banks.
const int PITCH_K = KMAX + 8, PITCH_MN = BT + 8;
const int STAGE = (BT * PITCH_K > KMAX * PITCH_MN ? BT * PITCH_K : KMAX * PITCH_MN) / UNIT;
const int CHUNKS = BT * KMAX / UNIT / WORKGROUP;  // 16-byte loads of an operand an invocation
// A's stage, then B's; C's tile (BT rows of BT + 8 halves) reuses A's once
// the multiplies are done.
shared uvec4 smem[2 * STAGE];

// Chunk j of this invocation's share of an operand's [BT, KMAX] tile: (row,
// k) of its first value, 8 values along its contiguous dimension.
ivec2 chunk_at(bool k_major, int j) {
  int c = int(gl_LocalInvocationID.x) + j * WORKGROUP;
  return k_major ? ivec2(c / (KMAX / 8), (c % (KMAX / 8)) * 8) : ivec2((c % (BT / 8)) * 8, c / (BT / 8));
}

int stage_at(bool k_major, ivec2 rk) {
  return (k_major ? rk.x * PITCH_K + rk.y : rk.y * PITCH_MN + rk.x) / UNIT;
}

// An operand's chunk, zeros outside [rows, K] (extents along the contiguous
// dimension are multiples of 8, so a chunk lies wholly inside or outside).
uvec4 load_chunk(uint64_t base, int64_t row_stride, int64_t k_stride, int64_t row0, int64_t rows, int64_t K,
                 ivec2 rk) {
  if (row0 + rk.x >= rows || rk.y >= K) return uvec4(0);
  return Vec8(base + uint64_t((row0 + rk.x) * row_stride + rk.y * k_stride) * 2u).v;
}

void main() {
  Params p = Params(args.meta);
  int64_t M = p.v[4], N = p.v[5], K = p.v[6], batches = p.v[7];
  int64_t tiles_m = (M + BT - 1) / BT, tiles_n = (N + BT - 1) / BT, R = p.v[24];
  int64_t group = int64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (group >= R * tiles_n) return;
  int64_t n0 = (group % tiles_n) * BT, first = group / tiles_n, last = batches * tiles_m;
  if (first >= last) return;
  bool a_k = A_KMAJOR == 1, b_k = B_KMAJOR == 1;
  uint64_t a = uint64_t(p.v[0]), b = uint64_t(p.v[1]), c = uint64_t(p.v[2]);
  float alpha = uintBitsToFloat(uint(p.v[20]));
  uint sg = gl_SubgroupID;
  int wm = int(sg / 2) * 32, wn = int(sg % 2) * 32;
  int steps = int((K + T - 1) / T);

  uvec4 ra[CHUNKS];
#define LOAD_A(RT) \
  { \
    int64_t batch_ = (RT) / tiles_m, m0_ = ((RT) % tiles_m) * BT; \
    [[unroll]] for (int j = 0; j < CHUNKS; ++j) \
      ra[j] = load_chunk(a + uint64_t(batch_ * p.v[8]) * 2u, p.v[9], p.v[10], m0_, M, K, chunk_at(a_k, j)); \
  }
  LOAD_A(first)
  int64_t b_batch = -1;
  for (int64_t rt = first; rt < last; rt += R) {
    int64_t batch = rt / tiles_m, m0 = (rt % tiles_m) * BT;
    barrier();  // the previous tile's C is written out of shared memory
    [[unroll]] for (int j = 0; j < CHUNKS; ++j) smem[stage_at(a_k, chunk_at(a_k, j))] = ra[j];
    if (batch != b_batch) {
      b_batch = batch;
      [[unroll]] for (int j = 0; j < CHUNKS; ++j) {
        ivec2 rk = chunk_at(b_k, j);
        smem[STAGE + stage_at(b_k, rk)] =
            load_chunk(b + uint64_t(batch * p.v[11]) * 2u, p.v[13], p.v[12], n0, N, K, rk);
      }
    }
    barrier();
    if (rt + R < last) LOAD_A(rt + R)

    coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> acc[2][2];
    [[unroll]] for (int i = 0; i < 2; ++i)
      [[unroll]] for (int j = 0; j < 2; ++j)
        acc[i][j] = coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(0.0);
    for (int kk = 0; kk < steps; ++kk) {
      coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseA> fa[2];
      coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseB> fb[2];
      [[unroll]] for (int i = 0; i < 2; ++i) {
        ivec2 at = ivec2(wm + i * T, kk * T);
        if (a_k) {
          coopMatLoad(fa[i], smem, stage_at(true, at), PITCH_K / UNIT, gl_CooperativeMatrixLayoutRowMajor);
        } else {
          coopMatLoad(fa[i], smem, stage_at(false, at), PITCH_MN / UNIT, gl_CooperativeMatrixLayoutColumnMajor);
        }
      }
      [[unroll]] for (int j = 0; j < 2; ++j) {
        ivec2 at = ivec2(wn + j * T, kk * T);
        if (b_k) {
          coopMatLoad(fb[j], smem, STAGE + stage_at(true, at), PITCH_K / UNIT, gl_CooperativeMatrixLayoutColumnMajor);
        } else {
          coopMatLoad(fb[j], smem, STAGE + stage_at(false, at), PITCH_MN / UNIT, gl_CooperativeMatrixLayoutRowMajor);
        }
      }
      [[unroll]] for (int i = 0; i < 2; ++i)
        [[unroll]] for (int j = 0; j < 2; ++j) acc[i][j] = coopMatMulAdd(fa[i], fb[j], acc[i][j]);
    }

    // C's tile through shared memory, written back as 16-byte chunks of
    // whole 128-byte rows (C's rows are vector-aligned and N a multiple of 8).
    barrier();  // every subgroup is done reading A's stage
    [[unroll]] for (int i = 0; i < 2; ++i)
      [[unroll]] for (int j = 0; j < 2; ++j) {
        coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> h =
            coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(acc[i][j] * alpha);
        coopMatStore(h, smem, ((wm + i * T) * PITCH_MN + wn + j * T) / UNIT, PITCH_MN / UNIT,
                     gl_CooperativeMatrixLayoutRowMajor);
      }
    barrier();
    uint64_t c_batch = c + uint64_t(batch * p.v[14]) * 2u;
    [[unroll]] for (int j = 0; j < BT * BT / UNIT / WORKGROUP; ++j) {
      int e = int(gl_LocalInvocationID.x) + j * WORKGROUP, r = e / (BT / 8), col = (e % (BT / 8)) * 8;
      if (m0 + r < M && n0 + col < N)
        Vec8(c_batch + uint64_t((m0 + r) * p.v[15] + n0 + col) * 2u).v = smem[(r * PITCH_MN + col) / UNIT];
    }
  }
}
