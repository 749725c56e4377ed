// C = act(alpha * A @ B + beta * bias) for batches of [M, K] x [K, N] in
// float16 with float32 accumulation, on tensor cores through
// VK_KHR_cooperative_matrix (16x16x16 subgroup matrices).
//
// Variants (variants.toml) fix at compile time the tile (TILE_N) and the
// operands' layouts (A_KMAJOR, B_KMAJOR), so that the fragment loads and the
// staging code have constant strides and branches.
//   TILE_N 128: 128x128 tiles, 8 subgroups of 64x32 (4x2 accumulators), BK 32;
//   TILE_N 256: 128x256 tiles, 8 subgroups of 64x64 (4x4 accumulators), BK 16,
//               for outputs with enough tiles to fill the GPU.
// K advances BK at a time through two shared-memory stages. Each invocation
// issues tile t + 2's global loads at step t into registers, multiplies
// stage t % 2, and writes tile t + 1 (loaded a step earlier) to the other
// stage, so one barrier per step orders everything.
//
// Every loop that touches the accumulators or fragments has a constant trip
// count and is unrolled: with a single dynamic index NVIDIA's compiler kept
// the accumulators in local memory (pipeline statistics: 256 bytes), and
// the kernel ran at 28 TFLOP/s instead of 100+ on the H200.
//
// Operands are read in place whatever their strides. Each operand's tile is
// kept in shared memory in the operand's own orientation (rows of its
// contiguous dimension, padded by 8 halves so the matrix loads of 8
// consecutive rows hit distinct banks) and loaded as a row- or column-major
// cooperative matrix accordingly. Global loads are 16-byte vectors when the
// host found the operand aligned (flag bits 0 and 1), element by element with
// bounds checks otherwise.
//
// Split-K (few output tiles, long K): workgroup group g takes split
// g % splits of K (`chunk` elements, a multiple of BK) and writes its raw
// float32 sums to a workspace [splits, batches, M, N]; gemm_splitk_reduce.comp
// then adds the splits and applies the epilogue.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : require

#include "common/math.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
} args;

// int64 words (strides in elements): a, b, c, bias addresses; M, N, K, batches;
// batch/row/col strides of a, b, c, bias; alpha and beta as float bits;
// activation; flags (1: A vector loads, 2: B vector loads, 4: direct
// stores); splits, chunk, workspace address.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Vec8 { uvec4 v; };
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly buffer Halves { float16_t v[]; };

#if TILE_N == 256
const int BM = 128, BN = 256, BK = 16, WM = 64, WN = 64, T = 16;
#else
const int BM = 128, BN = 128, BK = 32, WM = 64, WN = 32, T = 16;
#endif
const int SG_N = BN / WN;  // subgroups across N
const int FM = WM / T, FN = WN / T;
const int kThreads = 256;
const int PAD = 8;
// One stage of one operand: BM x (BK + PAD) or BK x (BM + PAD) halves.
const int STAGE_HALVES_A = BM * (BK + PAD) > BK * (BM + PAD) ? BM * (BK + PAD) : BK * (BM + PAD);
const int STAGE_HALVES_B = BN * (BK + PAD) > BK * (BN + PAD) ? BN * (BK + PAD) : BK * (BN + PAD);
const int CA = BM * BK / 8 / kThreads, CB = BN * BK / 8 / kThreads;  // 16-byte chunks per invocation
// The tiles are uvec4 arrays read by coopMatLoad as float16: storing them as
// f16vec4 instead measured slower on the H200 (25.7 against 28.5 TFLOP/s at
// 8192^3, in an earlier version of this kernel).
const int UNIT = 8;  // halves per array element
const int STAGE_A = STAGE_HALVES_A / UNIT, STAGE_B = STAGE_HALVES_B / UNIT;
shared uvec4 smem_a[2 * STAGE_A];
shared uvec4 smem_b[2 * STAGE_B];

// An operand seen as [rows, K] (A as it is, B transposed): k_major when K is
// its contiguous dimension; vec when the host allows 16-byte loads.
struct Operand {
  int64_t rows, cols;      // extents along its M (or N) and K
  uint64_t element_bytes;  // address step between the 8 halves of a chunk (along K when k_major)
  uint64_t step_bytes;     // address step from one BK step to the next
  bool k_major, vec;
};

// One 16-byte chunk of a tile that this invocation moves: 8 consecutive
// halves along the operand's contiguous dimension from (mn, k), at `address`.
// Chunk c of a tile is row c / (width / 8), column (c % (width / 8)) * 8 of
// the tile in its stored orientation (width = BK when K is contiguous, else
// the tile's M/N extent). Addresses are computed once and then advanced, so
// the loop does no 64-bit multiplication.
struct Chunk {
  uint64_t address;
  int64_t mn, k;
  int smem;  // position in the stored tile, in halves
};

Chunk first_chunk(Operand o, uint64_t base, int64_t stride_mn, int64_t stride_k, int64_t mn0, int64_t k0, int tile_mn,
            int j) {
  int c = int(gl_LocalInvocationID.x) + j * kThreads;
  int width = o.k_major ? BK : tile_mn, pitch = width + PAD;
  int row = c / (width / 8), col = (c % (width / 8)) * 8;
  Chunk ch;
  ch.mn = mn0 + (o.k_major ? row : col);
  ch.k = k0 + (o.k_major ? col : row);
  ch.address = base + uint64_t(ch.mn * stride_mn + ch.k * stride_k) * 2u;
  ch.smem = row * pitch + col;
  return ch;
}

uvec4 load8(Operand o, Chunk ch) {
  if (o.vec) {
    // The host checked that the contiguous extent is a multiple of 8, so a
    // chunk lies wholly inside or wholly outside.
    if (ch.mn >= o.rows || ch.k >= o.cols) return uvec4(0);
    return Vec8(ch.address).v;
  }
  uint h[8];
  [[unroll]] for (int i = 0; i < 8; ++i) {
    bool inside = o.k_major ? ch.mn < o.rows && ch.k + i < o.cols : ch.mn + i < o.rows && ch.k < o.cols;
    h[i] = inside ? uint(RefU16(ch.address + uint64_t(i) * o.element_bytes).v) : 0u;
  }
  return uvec4(h[0] | (h[1] << 16), h[2] | (h[3] << 16), h[4] | (h[5] << 16), h[6] | (h[7] << 16));
}

void advance(Operand o, inout Chunk ch) {
  ch.address += o.step_bytes;
  ch.k += BK;
}

void main() {
  Params p = Params(args.meta);
  int64_t M = p.v[4], N = p.v[5], K = p.v[6];
  int64_t tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  int64_t splits = p.v[24], chunk = p.v[25];
  int64_t split = int64_t(group) % splits;
  group /= uint64_t(splits);
  int64_t k_begin = split * chunk, k_end = min(K, k_begin + chunk);
  int64_t batch = int64_t(group) / (tiles_m * tiles_n);
  if (batch >= p.v[7]) return;
  // Consecutive workgroups walk down a band of 8 tile rows, so the tiles of A
  // and B they share stay in L2.
  int64_t t = int64_t(group) - batch * tiles_m * tiles_n;
  int64_t band = t / (8 * tiles_n), first = band * 8, height = min(tiles_m - first, 8);
  int64_t tm = first + (t % (8 * tiles_n)) % height, tn = (t % (8 * tiles_n)) / height;
  int64_t m0 = tm * BM, n0 = tn * BN;
  int flags = int(p.v[23]);

  int64_t a_mn = p.v[9], a_k = p.v[10], b_mn = p.v[13], b_k = p.v[12];
  const bool a_kmajor = A_KMAJOR == 1, b_kmajor = B_KMAJOR == 1;
  Operand a = Operand(M, K, uint64_t(a_kmajor ? a_k : a_mn) * 2u, uint64_t(BK * a_k) * 2u, a_kmajor, (flags & 1) != 0);
  Operand b = Operand(N, K, uint64_t(b_kmajor ? b_k : b_mn) * 2u, uint64_t(BK * b_k) * 2u, b_kmajor, (flags & 2) != 0);
  uint64_t a_base = uint64_t(p.v[0]) + uint64_t(batch * p.v[8]) * 2u;
  uint64_t b_base = uint64_t(p.v[1]) + uint64_t(batch * p.v[11]) * 2u;
  Chunk ca[CA], cb[CB];
  [[unroll]] for (int j = 0; j < CA; ++j) ca[j] = first_chunk(a, a_base, a_mn, a_k, m0, k_begin, BM, j);
  [[unroll]] for (int j = 0; j < CB; ++j) cb[j] = first_chunk(b, b_base, b_mn, b_k, n0, k_begin, BN, j);

  uint sg = gl_SubgroupID;
  int wm = int(sg / SG_N) * WM, wn = int(sg % SG_N) * WN;
  coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> acc[FM][FN];
  [[unroll]] for (int i = 0; i < FM; ++i)
    [[unroll]] for (int j = 0; j < FN; ++j) acc[i][j] = coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(0.0);

  // Fragment positions in the stored tiles, in halves: the first fragment's,
  // and the steps to the next fragment and to the next 16 of K.
  int pa = (a.k_major ? BK : BM) + PAD, pb = (b.k_major ? BK : BN) + PAD;
  int a_first = a.k_major ? wm * pa : wm, a_next = a.k_major ? T * pa : T, a_deep = a.k_major ? T : T * pa;
  int b_first = b.k_major ? wn * pb : wn, b_next = b.k_major ? T * pb : T, b_deep = b.k_major ? T : T * pb;
  int steps = int((k_end - k_begin + BK - 1) / BK);

#define LOAD_FIRST(RA, RB) \
  [[unroll]] for (int j = 0; j < CA; ++j) RA[j] = load8(a, ca[j]); \
  [[unroll]] for (int j = 0; j < CB; ++j) RB[j] = load8(b, cb[j]);
#define LOAD_NEXT(RA, RB) \
  [[unroll]] for (int j = 0; j < CA; ++j) { advance(a, ca[j]); RA[j] = load8(a, ca[j]); } \
  [[unroll]] for (int j = 0; j < CB; ++j) { advance(b, cb[j]); RB[j] = load8(b, cb[j]); }
// Writes a tile held in registers to stage STG of the shared tiles.
#define STASH_TILE(RA, RB, STG) \
  [[unroll]] for (int j = 0; j < CA; ++j) smem_a[(STG) * STAGE_A + ca[j].smem / UNIT] = RA[j]; \
  [[unroll]] for (int j = 0; j < CB; ++j) smem_b[(STG) * STAGE_B + cb[j].smem / UNIT] = RB[j];
#define COMPUTE(CUR) \
  [[unroll]] for (int kk = 0; kk < BK / T; ++kk) { \
    coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseA> fa[FM]; \
    coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseB> fb[FN]; \
    [[unroll]] for (int i = 0; i < FM; ++i) { \
      int at = (CUR) * STAGE_A + (a_first + i * a_next + kk * a_deep) / UNIT; \
      if (a.k_major) { \
        coopMatLoad(fa[i], smem_a, at, pa / UNIT, gl_CooperativeMatrixLayoutRowMajor); \
      } else { \
        coopMatLoad(fa[i], smem_a, at, pa / UNIT, gl_CooperativeMatrixLayoutColumnMajor); \
      } \
    } \
    [[unroll]] for (int j = 0; j < FN; ++j) { \
      int at = (CUR) * STAGE_B + (b_first + j * b_next + kk * b_deep) / UNIT; \
      if (b.k_major) { \
        coopMatLoad(fb[j], smem_b, at, pb / UNIT, gl_CooperativeMatrixLayoutColumnMajor); \
      } else { \
        coopMatLoad(fb[j], smem_b, at, pb / UNIT, gl_CooperativeMatrixLayoutRowMajor); \
      } \
    } \
    [[unroll]] for (int i = 0; i < FM; ++i) \
      [[unroll]] for (int j = 0; j < FN; ++j) acc[i][j] = coopMatMulAdd(fa[i], fb[j], acc[i][j]); \
  }

  // Tile t + 2's global loads are issued at step t into the register set
  // tile t came through, and stashed at the end of step t + 1.
  uvec4 ra0[CA], rb0[CB], ra1[CA], rb1[CB];
  LOAD_FIRST(ra0, rb0)
  STASH_TILE(ra0, rb0, 0)
  if (steps > 1) {
    LOAD_NEXT(ra1, rb1)
  }
  barrier();
  for (int s = 0; s < steps; s += 2) {
    if (s + 2 < steps) {
      LOAD_NEXT(ra0, rb0)
    }
    COMPUTE(0)
    if (s + 1 < steps) {
      STASH_TILE(ra1, rb1, 1)
    }
    barrier();
    if (s + 1 >= steps) break;
    if (s + 3 < steps) {
      LOAD_NEXT(ra1, rb1)
    }
    COMPUTE(1)
    if (s + 2 < steps) {
      STASH_TILE(ra0, rb0, 0)
    }
    barrier();
  }

  // Epilogue. Fragments wholly inside C go straight to memory as float16
  // matrices when the host allows it (flag 4: one split, no activation, rows
  // of C contiguous and 16-byte aligned, the bias absent or a row vector):
  // element by element, g^T @ x of the MNIST benchmark (K = 128) ran at
  // 12 TFLOP/s, bound by these stores. Other fragments go element by element
  // so that any output strides, the bias's broadcast and the tile edges are
  // handled like the portable kernel does: each subgroup stages one
  // accumulator at a time as 16x16 floats in its own 64 uvec4s of smem_a,
  // free now that the loop's last barrier passed. The direct stores' float16
  // conversion is the driver's (round to nearest on NVIDIA), the element
  // path's is f32_to_f16_bits.
  uint64_t c = uint64_t(p.v[2]), bias = uint64_t(p.v[3]), workspace = uint64_t(p.v[26]);
  float alpha = uintBitsToFloat(uint(p.v[20])), beta = uintBitsToFloat(uint(p.v[21]));
  int activation = int(p.v[22]);
  bool direct = (flags & 4) != 0;
  uint lane = gl_SubgroupInvocationID;
  [[unroll]] for (int i = 0; i < FM; ++i) {
    [[unroll]] for (int j = 0; j < FN; ++j) {
      int64_t fm = m0 + wm + i * T, fn = n0 + wn + j * T;
      bool whole = direct && fm + T <= M && fn + T <= N;
      if (whole) {
        coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> v = acc[i][j] * alpha;
        if (bias != 0 && beta != 0.0) {
          // 16 copies of the bias's 16 values, as a matrix to add.
          smem_a[sg * 64 + lane] = Vec8(bias + uint64_t(batch * p.v[17] + fn) * 2u + (lane % 2) * 16u).v;
          subgroupMemoryBarrierShared();
          subgroupBarrier();
          coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> row;
          coopMatLoad(row, smem_a, sg * 64, 2, gl_CooperativeMatrixLayoutRowMajor);
          v += coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(row) * beta;
          subgroupBarrier();
        }
        coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> h =
            coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(v);
        coopMatStore(h, Halves(c + uint64_t(batch * p.v[14] + fm * p.v[15] + fn) * 2u).v, 0, uint(p.v[15]),
                     gl_CooperativeMatrixLayoutRowMajor);
      }
      coopMatStore(acc[i][j], smem_a, sg * 64, T / 4, gl_CooperativeMatrixLayoutRowMajor);
      subgroupMemoryBarrierShared();
      subgroupBarrier();
      // A constant trip count (subgroups are 32 wide on this tier), so every
      // loop touching acc unrolls and acc stays in registers: with one
      // dynamic index the driver kept all of acc in local memory.
      [[unroll]] for (int r = 0; r < T * T / 32; ++r) {
        uint e = lane + 32 * r;
        int64_t m = m0 + wm + i * T + int64_t(e / T), n = n0 + wn + j * T + int64_t(e % T);
        if (!whole && m < M && n < N) {
          float value = uintBitsToFloat(smem_a[sg * 64 + e / 4][e % 4]);
          if (splits > 1) {
            RefF32(workspace + uint64_t(((split * p.v[7] + batch) * M + m) * N + n) * 4u).v = value;
          } else {
            value *= alpha;
            // beta == 0 ignores the bias entirely (NaN included), as PyTorch.
            if (bias != 0 && beta != 0.0) {
              value += beta * X_load(bias + uint64_t(batch * p.v[17] + m * p.v[18] + n * p.v[19]) * 2u);
            }
            if (activation == 1) value = max(value, 0.0);
            if (activation == 2) value = gelu_f(value);
            X_store(c + uint64_t(batch * p.v[14] + m * p.v[15] + n * p.v[16]) * 2u, value);
          }
        }
      }
      subgroupBarrier();
    }
  }
}
