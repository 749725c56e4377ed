// C = act(alpha * A @ B + beta * bias) for batches of [M, K] x [K, N] in
// float16 or bfloat16 with float32 accumulation on tensor cores
// (VK_KHR_cooperative_matrix, 16x16x16), each subgroup loading its
// fragments straight from global memory: no shared stage, no workgroup
// barrier.
//
// Why: gemm_coop.comp's v128 spends most of a short product's life (the
// MNIST benchmark's g^T @ x, K = 128) outside its multiplies: on the H100 a
// workgroup waits 3.6 us for its first staged loads, multiplies for 2.9 and
// stores for 2.3, and only two workgroups fit an SM (255 registers), in
// step with each other through their barriers. Two attempts to overlap those
// phases within a workgroup lost (p128 and k128, docs/measurements.md). Here
// each subgroup is on its own: one subgroup's multiplies can run while
// others wait for loads or store, and a subgroup that finishes frees its
// registers at once. A's and B's fragments are read by several subgroups,
// through L1 and L2, where v128 reads each value once into shared memory.
//
// Variants (variants.toml) fix the subgroup tile WM x WN, the subgroups a
// workgroup (SG_M x SG_N, adjacent tiles, for L1 sharing only) and each
// operand's layout (A_KMAJOR, B_KMAJOR as in gemm_coop.comp). gemm.cpp
// takes it only for operands it found vector-loadable (contiguous dim a
// multiple of 8, other strides multiples of 8, 16-byte aligned), so every
// fragment's rows start on 16 bytes. A fragment that reaches past M, N or
// the split's K is staged through the subgroup's shared scratch in 16-byte
// chunks with bounds checks (each lies wholly inside or outside).
//
// The parameter block is gemm_coop.comp's (gemm_tiled.comp lists its words),
// including split-K through the float32 workspace.
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
#include "matmul/tile_order.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
} args;

layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

#include "matmul/float_epilogue.glsl"
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec8 { uvec4 v; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Halves { uvec4 v[]; };

const int T = 16, UNIT = 8;  // fragment side; halves a uvec4
const int FM = WM / T, FN = WN / T, BM = WM * SG_M, BN = WN * SG_N;
#if SG_M * SG_N * 32 != WORKGROUP
#error "one subgroup of 32 a WM x WN tile"
#endif
// A subgroup's scratch in uvec4s: an edge fragment (16 lines of 16 halves
// and 8 of padding), or a row of its output fragments (16 x (WN + 8)
// halves), or 16 x 16 float sums, or the bias fragment (32 uvec4s).
const int EDGE_PITCH = 3, EPI_PITCH = (WN + 8) / UNIT;
const int SCRATCH = T * EPI_PITCH > 64 ? T * EPI_PITCH : 64;
shared uvec4 scratch[SCRATCH * WORKGROUP / 32];

// An operand as [rows, K] (A as it is, B transposed): its address, extents,
// strides in elements, and whether K is its contiguous dim.
struct Operand {
  uint64_t base;
  int64_t rows, k_end, stride_mn, stride_k;
  bool k_major;
};

// Operand O's fragment at rows MN.., K KK.. into FRAG, stored in LAYOUT
// (a constant): straight from memory when it lies inside, else through the
// subgroup's scratch.
#define LOAD_FRAGMENT(FRAG, O, MN, KK, LAYOUT) \
  { \
    int64_t mn_ = (MN), k_ = (KK); \
    uint64_t at_ = O.base + uint64_t(mn_ * O.stride_mn + k_ * O.stride_k) * 2u; \
    uint pitch_ = uint((O.k_major ? O.stride_mn : O.stride_k) / UNIT); \
    if (mn_ + T <= O.rows && k_ + T <= O.k_end) { \
      coopMatLoad(FRAG, Halves(at_).v, 0, pitch_, LAYOUT); \
    } else { \
      /* Lane l: line l / 2 of the fragment along its strided dim, halves (l % 2) * 8.. along the contiguous one. */ \
      int line_ = int(lane / 2), half_ = int(lane % 2) * 8; \
      int64_t lm_ = O.k_major ? mn_ + line_ : mn_ + half_, lk_ = O.k_major ? k_ + half_ : k_ + line_; \
      uint64_t chunk_ = O.base + uint64_t(lm_ * O.stride_mn + lk_ * O.stride_k) * 2u; \
      subgroupBarrier(); \
      scratch[own + line_ * EDGE_PITCH + half_ / UNIT] = \
          lm_ < O.rows && lk_ < O.k_end ? Vec8(chunk_).v : uvec4(0); \
      subgroupMemoryBarrierShared(); \
      subgroupBarrier(); \
      coopMatLoad(FRAG, scratch, own, EDGE_PITCH, LAYOUT); \
    } \
  }

void main() {
  Params p = Params(args.meta);
  int64_t M = p.v[4], N = p.v[5], K = p.v[6];
  int64_t tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  int64_t splits = p.v[24], chunk = p.v[25];
  int64_t split = int64_t(group) % splits;
  group /= uint64_t(splits);
  int64_t batch = int64_t(group) / (tiles_m * tiles_n);
  if (batch >= p.v[7]) return;
  i64vec2 tile = tile_in_band(int64_t(group) - batch * tiles_m * tiles_n, tiles_m, tiles_n);
  uint sg = gl_SubgroupID, lane = gl_SubgroupInvocationID;
  int64_t m0 = tile.x * BM + (sg / SG_N) * WM, n0 = tile.y * BN + (sg % SG_N) * WN;
  if (m0 >= M || n0 >= N) return;  // a subgroup's tile wholly outside: nothing to load or store
  int64_t k_begin = split * chunk, k_end = min(K, k_begin + chunk);
  int own = int(sg) * SCRATCH;

  // A's fragments are row-major where K is its contiguous dim, B's where N is.
  const int A_LAYOUT = A_KMAJOR == 1 ? gl_CooperativeMatrixLayoutRowMajor : gl_CooperativeMatrixLayoutColumnMajor;
  const int B_LAYOUT = B_KMAJOR == 1 ? gl_CooperativeMatrixLayoutColumnMajor : gl_CooperativeMatrixLayoutRowMajor;
  Operand a = Operand(uint64_t(p.v[0]) + uint64_t(batch * p.v[8]) * 2u, M, k_end, p.v[9], p.v[10], A_KMAJOR == 1);
  Operand b = Operand(uint64_t(p.v[1]) + uint64_t(batch * p.v[11]) * 2u, N, k_end, p.v[13], p.v[12], B_KMAJOR == 1);

  coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> acc[FM][FN];
  [[unroll]] for (int i = 0; i < FM; ++i)
    [[unroll]] for (int j = 0; j < FN; ++j) acc[i][j] = coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(0.0);

  // Two sets of fragments: the next 16 of K load while the current multiply.
  coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseA> fa[FM], fa2[FM];
  coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseB> fb[FN], fb2[FN];
#define LOADS(FA, FB, KK) \
  [[unroll]] for (int i = 0; i < FM; ++i) LOAD_FRAGMENT(FA[i], a, m0 + i * T, KK, A_LAYOUT) \
  [[unroll]] for (int j = 0; j < FN; ++j) LOAD_FRAGMENT(FB[j], b, n0 + j * T, KK, B_LAYOUT)
#define MULTIPLY(FA, FB) \
  [[unroll]] for (int i = 0; i < FM; ++i) \
    [[unroll]] for (int j = 0; j < FN; ++j) acc[i][j] = coopMatMulAdd(FA[i], FB[j], acc[i][j]);
  int64_t k = k_begin;
  if (k < k_end) {
    LOADS(fa, fb, k)
  }
  for (; k < k_end; k += 2 * T) {
    if (k + T < k_end) {
      LOADS(fa2, fb2, k + T)
    }
    MULTIPLY(fa, fb)
    if (k + T >= k_end) break;
    if (k + 2 * T < k_end) {
      LOADS(fa, fb, k + 2 * T)
    }
    MULTIPLY(fa2, fb2)
  }

  // Epilogue: gemm_coop.comp's two paths (vector stores of whole rows when
  // flag 4 allows them, else element by element through store_sum or into
  // the split-K workspace), each subgroup through its own scratch.
  uint64_t c = uint64_t(p.v[2]), bias = uint64_t(p.v[3]), workspace = uint64_t(p.v[26]);
  float alpha = uintBitsToFloat(uint(p.v[20])), beta = uintBitsToFloat(uint(p.v[21]));
  int flags = int(p.v[23]);
  subgroupBarrier();
  if ((flags & 4) != 0) {
    [[unroll]] for (int i = 0; i < FM; ++i) {
      int64_t fm = m0 + i * T;
      [[unroll]] for (int j = 0; j < FN; ++j) {
        coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> v = acc[i][j] * alpha;
        if (bias != 0 && beta != 0.0) {
          // 16 copies of the bias's 16 values (N is a multiple of 8).
          int64_t fn = n0 + j * T + (lane % 2) * 8;
          scratch[own + lane] = fn < N ? Vec8(bias + uint64_t(batch * p.v[17] + fn) * 2u).v : uvec4(0);
          subgroupMemoryBarrierShared();
          subgroupBarrier();
          coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> row;
          coopMatLoad(row, scratch, own, 2, gl_CooperativeMatrixLayoutRowMajor);
          subgroupBarrier();
          v += coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(row) * beta;
        }
        coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> h =
            coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(v);
        coopMatStore(h, scratch, own + j * 2, EPI_PITCH, gl_CooperativeMatrixLayoutRowMajor);
      }
      subgroupMemoryBarrierShared();
      subgroupBarrier();
      // 16 rows of WN halves, consecutive lanes along a row.
      [[unroll]] for (int r = 0; r < T * WN / UNIT / 32; ++r) {
        int e = int(lane) + 32 * r;
        int64_t m = fm + e / (WN / 8), n = n0 + (e % (WN / 8)) * 8;
        if (m < M && n < N)
          Vec8(c + uint64_t(batch * p.v[14] + m * p.v[15] + n) * 2u).v = scratch[own + (e / (WN / 8)) * EPI_PITCH + e % (WN / 8)];
      }
      subgroupBarrier();
    }
    return;
  }
  [[unroll]] for (int i = 0; i < FM; ++i) {
    [[unroll]] for (int j = 0; j < FN; ++j) {
      coopMatStore(acc[i][j], scratch, own, T / 4, gl_CooperativeMatrixLayoutRowMajor);
      subgroupMemoryBarrierShared();
      subgroupBarrier();
      [[unroll]] for (int r = 0; r < T * T / 32; ++r) {
        uint e = lane + 32 * r;
        int64_t m = m0 + i * T + int64_t(e / T), n = n0 + j * T + int64_t(e % T);
        if (m < M && n < N) {
          float value = uintBitsToFloat(scratch[own + e / 4][e % 4]);
          if (workspace != 0) {
            RefF32(workspace + uint64_t(((split * p.v[7] + batch) * M + m) * N + n) * 4u).v = value;
          } else {
            store_sum(p, value, batch, m, n);
          }
        }
      }
      subgroupBarrier();
    }
  }
}
