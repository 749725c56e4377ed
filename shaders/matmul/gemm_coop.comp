// C = act(alpha * A @ B + beta * bias) for batches of [M, K] x [K, N] in
// float16 or bfloat16 with float32 accumulation, on tensor cores through
// VK_KHR_cooperative_matrix (16x16x16 subgroup matrices).
//
// Variants (variants.toml) fix at compile time the tile shape and the
// operands' layouts (A_KMAJOR, B_KMAJOR), so that the fragment loads and the
// staging code have constant strides and branches: BM x BN output tile per
// workgroup of WORKGROUP invocations, each subgroup WM x WN of it; K advances
// BK at a time through one shared stage fed from registers. Each step stores
// the registers to shared memory, then issues the next tile's global loads
// and multiplies while they fly: two barriers a step. Measured on the H200
// against two stages (step t loads tile t + 2, multiplies one stage and
// stores tile t + 1 to the other: one barrier a step, but twice the shared
// memory, so BK 16 for 128x256 within 48 KiB): one stage won, 128x256 tiles
// 205 against 155 TFLOP/s at 8192^3, and a 64x128 two-stage tile reached
// only 41. One stage with BK 16 (half the staging registers) still sat at
// the 255-register cap and ran 161-170; 64x64 tiles (108-128 registers, no
// spills, more workgroups per SM) 153 (docs/measurements.md).
//
// Where v128's time goes (benchmark/coop_phases.py, the q tiles' clock
// stamps; H100, 2026-12-06): two workgroups an SM (264 in flight), each
// step of K 1,650-1,930 cycles for 128 x 128 x 32, about 630 flops a cycle
// a workgroup, 1,270 an SM, where cuBLAS's 611 TFLOP/s at 4096^3 is about
// 2,650. With K = 128 (the MNIST benchmark's g^T @ x) a workgroup lives
// 8.8 us: 3.6 us until its first step's loads arrive, 2.9 for the steps,
// 2.3 for the epilogue.
//
// Every loop that touches the accumulators or fragments has a constant trip
// count and is unrolled: with a single dynamic index NVIDIA's compiler kept
// the accumulators in local memory (pipeline statistics: 256 bytes), and
// the kernel ran at 28 TFLOP/s instead of 100+ on the H200.
//
// Operands are read in place whatever their strides. Each operand's tile is
// kept in shared memory in the operand's own orientation (rows of its
// contiguous dimension, padded by 8 elements so the matrix loads of 8
// consecutive rows hit distinct banks) and loaded as a row- or column-major
// cooperative matrix accordingly. Global loads are 16-byte vectors when the
// host found the operand aligned (flag bits 0 and 1), element by element with
// bounds checks otherwise. Both element types are 16 bits wide ("halves"
// below), so staging moves raw bits and only the fragments and the epilogue
// see the type (ELEM).
//
// Split-K (few output tiles, long K): workgroup group g takes split
// g % splits of K (`chunk` elements, a multiple of BK) and writes its raw
// float32 sums to a workspace [splits, batches, M, N]; gemm_splitk_reduce.comp
// then adds the splits and applies the epilogue.
// Whenever the host passes a workspace, also with one split: a float32
// product from bfloat16 operands (gemm.cpp's bf16_route) takes that path.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : require

// PHASES (gemm_coop_phases, the q tiles: v128 with clocks, forced only, for
// benchmark/coop_phases.py): the device's clock at the workgroup's start
// and end and the SM's cycle counter at four points (start, step 0 staged,
// loop done, epilogue done), by matmul/phase_stamps.glsl.
#if defined(X_DT_BF16)
#extension GL_EXT_bfloat16 : require
#define ELEM bfloat16_t
#else
#define ELEM float16_t
#endif

#include "common/math.glsl"
#include "matmul/phase_stamps.glsl"
#include "matmul/tile_order.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
} args;

// int64 words (strides in elements): a, b, c, bias addresses; M, N, K, batches;
// batch/row/col strides of a, b, c, bias; alpha and beta as float bits;
// activation; flags (1: A vector loads, 2: B vector loads, 4: vector stores,
// 32: vector stores to the workspace);
// splits, chunk, workspace address.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

#include "matmul/float_epilogue.glsl"
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec8 { uvec4 v; };

const int T = 16;
// VECTORS (the v tiles; the host takes them when both operands are
// vector-loadable and every extent is below 2^31): no element-by-element
// load path and 32-bit coordinates, which leaves the registers for two
// steps of loads in flight instead of one. On the H200 (float16, TFLOP/s
// against the s tiles, one workgroup per SM at NVIDIA's 255-register cap
// either way): bmm 32x1024x1024x1024 217 against 113, K = 256 150 against
// 70, the MNIST benchmark's g^T @ x at h = 393216 (K = 128) 105 against 78.
// Compiling the scalar path out alone gave most of it (213, 130, 89); 32-bit
// coordinates alone nothing (125, 76, 78).
#ifdef VECTORS
#define COORD int
#else
#define COORD int64_t
#endif
const int SG_N = BN / WN;  // subgroups across N
const int FM = WM / T, FN = WN / T;
const int PAD = 8;
#if (BM / WM) * (BN / WN) * 32 != WORKGROUP
#error "the subgroup tiles must cover the workgroup tile, one per 32 invocations"
#endif
// The stage of one operand: BM x (BK + PAD) or BK x (BM + PAD) halves.
const int STAGE_HALVES_A = BM * (BK + PAD) > BK * (BM + PAD) ? BM * (BK + PAD) : BK * (BM + PAD);
const int STAGE_HALVES_B = BN * (BK + PAD) > BK * (BN + PAD) ? BN * (BK + PAD) : BK * (BN + PAD);
const int CA = BM * BK / 8 / WORKGROUP, CB = BN * BK / 8 / WORKGROUP;  // 16-byte chunks per invocation
// The tiles are uvec4 arrays read by coopMatLoad as ELEM: storing them as
// f16vec4 instead measured slower on the H200 (25.7 against 28.5 TFLOP/s at
// 8192^3, in an earlier version of this kernel).
const int UNIT = 8;  // halves per array element
const int STAGE_A = STAGE_HALVES_A / UNIT, STAGE_B = STAGE_HALVES_B / UNIT;
// One array: A's stage, then B's (from SMEM_B). The epilogue reuses it for
// each subgroup's row of fragments (16 x WN halves, EPI uvec4s) and, after
// those, a bias fragment (16 x 16 halves, 32 uvec4s) per subgroup, and is
// sized for whichever use is larger. The epilogue's rows are padded by 8
// halves too (with 128-byte rows the 8 rows of a fragment store shared
// banks; on the H200 g^T @ x above went from 78 to 82 TFLOP/s).
const int SMEM_B = STAGE_A;
const int EPI_PITCH = (WN + PAD) / UNIT;
const int EPI = T * EPI_PITCH, EPI_BIAS = EPI * WORKGROUP / 32, EPI_END = EPI_BIAS + 32 * WORKGROUP / 32;
const int STAGE = STAGE_A + STAGE_B;
shared uvec4 smem[max(STAGE, EPI_END)];

// An operand seen as [rows, K] (A as it is, B transposed), staged by the
// workgroup in 16-byte chunks: 8 consecutive halves along its contiguous
// dimension (K when k_major). Chunk c of a tile is row c / (width / 8),
// column (c % (width / 8)) * 8 of the tile in its stored orientation (width
// = BK when k_major, else the tile's M/N extent), so an invocation's chunks
// j = 0, 1, ... share a column and lie `rows_apart` rows apart: only their
// addresses are kept per chunk, coordinates and shared offsets are the first
// chunk's plus constants (a full set per chunk took 7 registers; the one-stage
// configurations sit at NVIDIA's 255-register cap and still spill ~200 bytes).
struct Operand {
  COORD rows, cols;         // extents along its M (or N) and K
  uint64_t element_bytes;   // address step between the 8 halves of a chunk
  uint64_t step_bytes;      // address step from one BK step to the next
  COORD mn, k;              // the first chunk's coordinates, k advanced each step
  int smem, smem_apart;     // the first chunk's stored position and the step to the next (halves)
  int rows_apart;           // rows of the stored tile between consecutive chunks
  bool k_major, vec;
};

Operand operand(int64_t rows, int64_t cols, int64_t stride_mn, int64_t stride_k, int64_t mn0, int64_t k0, int tile_mn,
                bool k_major, bool vec) {
  int width = k_major ? BK : tile_mn, pitch = width + PAD;
  int lid = int(gl_LocalInvocationID.x), row = lid / (width / 8), col = (lid % (width / 8)) * 8;
  Operand o;
  o.rows = COORD(rows);
  o.cols = COORD(cols);
  o.element_bytes = uint64_t(k_major ? stride_k : stride_mn) * 2u;
  o.step_bytes = uint64_t(BK * stride_k) * 2u;
  o.mn = COORD(mn0 + (k_major ? row : col));
  o.k = COORD(k0 + (k_major ? col : row));
  o.smem = row * pitch + col;
  o.rows_apart = WORKGROUP / (width / 8);
  o.smem_apart = o.rows_apart * pitch;
  o.k_major = k_major;
  o.vec = vec;
  return o;
}

// Chunk j's coordinates: rows of the stored tile run along M/N when K is
// contiguous, along K otherwise.
COORD chunk_mn(Operand o, int j) {
  return o.mn + (o.k_major ? j * o.rows_apart : 0);
}

COORD chunk_k(Operand o, int j) {
  return o.k + (o.k_major ? 0 : j * o.rows_apart);
}

uint64_t chunk_address(Operand o, uint64_t base, int64_t stride_mn, int64_t stride_k, int j) {
  return base + uint64_t(int64_t(chunk_mn(o, j)) * stride_mn + int64_t(chunk_k(o, j)) * stride_k) * 2u;
}

// A chunk of 8 halves read one by one, bounds-checked (operands that are
// not vector-loadable).
uvec4 load_elements(Operand o, uint64_t address, COORD mn, COORD k) {
  uint h[8];
  [[unroll]] for (int i = 0; i < 8; ++i) {
    bool inside = o.k_major ? mn < o.rows && k + i < o.cols : mn + i < o.rows && k < o.cols;
    h[i] = inside ? uint(RefU16(address + uint64_t(i) * o.element_bytes).v) : 0u;
  }
  return uvec4(h[0] | (h[1] << 16), h[2] | (h[3] << 16), h[4] | (h[5] << 16), h[6] | (h[7] << 16));
}

uvec4 load8(Operand o, uint64_t address, int j) {
  COORD mn = chunk_mn(o, j), k = chunk_k(o, j);
#ifndef VECTORS
  if (!o.vec) return load_elements(o, address, mn, k);
#endif
  // The host checked that the contiguous extent is a multiple of 8, so a
  // chunk lies wholly inside or wholly outside.
  if (mn >= o.rows || k >= o.cols) return uvec4(0);
  return Vec8(address).v;
}

void main() {
  Params p = Params(args.meta);
  int64_t M = p.v[4], N = p.v[5], K = p.v[6];
  int64_t tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  int64_t splits = p.v[24], chunk = p.v[25];
  int64_t rest = quotient(int64_t(group), splits), split = int64_t(group) - rest * splits;
  group = uint64_t(rest);
  int64_t k_begin = split * chunk, k_end = min(K, k_begin + chunk);
  int64_t batch = quotient(int64_t(group), tiles_m * tiles_n);
  if (batch >= p.v[7]) return;  // (before the stamps: a grid's padding has no row of them)
  STAMP(0, true)
  STAMP(1, false)
  i64vec2 tile = tile_in_band(int64_t(group) - batch * tiles_m * tiles_n, tiles_m, tiles_n);
  int64_t m0 = tile.x * BM, n0 = tile.y * BN;
  int flags = int(p.v[23]);

  int64_t a_mn = p.v[9], a_k = p.v[10], b_mn = p.v[13], b_k = p.v[12];
  Operand a = operand(M, K, a_mn, a_k, m0, k_begin, BM, A_KMAJOR == 1, (flags & 1) != 0);
  Operand b = operand(N, K, b_mn, b_k, n0, k_begin, BN, B_KMAJOR == 1, (flags & 2) != 0);
  uint64_t a_base = uint64_t(p.v[0]) + uint64_t(batch * p.v[8]) * 2u;
  uint64_t b_base = uint64_t(p.v[1]) + uint64_t(batch * p.v[11]) * 2u;
  uint64_t ad[CA], bd[CB];
  [[unroll]] for (int j = 0; j < CA; ++j) ad[j] = chunk_address(a, a_base, a_mn, a_k, j);
  [[unroll]] for (int j = 0; j < CB; ++j) bd[j] = chunk_address(b, b_base, b_mn, b_k, j);

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
  [[unroll]] for (int j = 0; j < CA; ++j) RA[j] = load8(a, ad[j], j); \
  [[unroll]] for (int j = 0; j < CB; ++j) RB[j] = load8(b, bd[j], j);
#define LOAD_NEXT(RA, RB) \
  a.k += BK; \
  b.k += BK; \
  [[unroll]] for (int j = 0; j < CA; ++j) { ad[j] += a.step_bytes; RA[j] = load8(a, ad[j], j); } \
  [[unroll]] for (int j = 0; j < CB; ++j) { bd[j] += b.step_bytes; RB[j] = load8(b, bd[j], j); }
// Writes a tile held in registers to the shared stage.
#define STASH_TILE(RA, RB) \
  [[unroll]] for (int j = 0; j < CA; ++j) smem[(a.smem + j * a.smem_apart) / UNIT] = RA[j]; \
  [[unroll]] for (int j = 0; j < CB; ++j) smem[SMEM_B + (b.smem + j * b.smem_apart) / UNIT] = RB[j];
// Multiplies the staged tile into the accumulators, 16 of K at a time.
#define COMPUTE() \
  [[unroll]] for (int kk = 0; kk < BK / T; ++kk) { \
    coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseA> fa[FM]; \
    [[unroll]] for (int i = 0; i < FM; ++i) { \
      int at = (a_first + i * a_next + kk * a_deep) / UNIT; \
      if (a.k_major) { \
        coopMatLoad(fa[i], smem, at, pa / UNIT, gl_CooperativeMatrixLayoutRowMajor); \
      } else { \
        coopMatLoad(fa[i], smem, at, pa / UNIT, gl_CooperativeMatrixLayoutColumnMajor); \
      } \
    } \
    coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseB> fb[FN]; \
    [[unroll]] for (int j = 0; j < FN; ++j) { \
      int at = SMEM_B + (b_first + j * b_next + kk * b_deep) / UNIT; \
      if (b.k_major) { \
        coopMatLoad(fb[j], smem, at, pb / UNIT, gl_CooperativeMatrixLayoutColumnMajor); \
      } else { \
        coopMatLoad(fb[j], smem, at, pb / UNIT, gl_CooperativeMatrixLayoutRowMajor); \
      } \
    } \
    [[unroll]] for (int i = 0; i < FM; ++i) \
      [[unroll]] for (int j = 0; j < FN; ++j) acc[i][j] = coopMatMulAdd(fa[i], fb[j], acc[i][j]); \
  }

#if defined(VECTORS)
  // Two steps of loads in flight: step s's registers are refilled with step
  // s + 2 while step s + 1's are still arriving.
  uvec4 ra[CA], rb[CB], ra2[CA], rb2[CB];
  LOAD_FIRST(ra, rb)
  if (steps > 1) {
    LOAD_NEXT(ra2, rb2)
  }
  for (int s = 0; s < steps; s += 2) {
    barrier();
    STASH_TILE(ra, rb)
    barrier();
    if (s == 0) { STAMP(2, false) }
    if (s + 2 < steps) {
      LOAD_NEXT(ra, rb)
    }
    COMPUTE()
    if (s + 1 >= steps) break;
    barrier();
    STASH_TILE(ra2, rb2)
    barrier();
    if (s + 3 < steps) {
      LOAD_NEXT(ra2, rb2)
    }
    COMPUTE()
  }
#else
  uvec4 ra[CA], rb[CB];
  LOAD_FIRST(ra, rb)
  for (int s = 0; s < steps; ++s) {
    barrier();
    STASH_TILE(ra, rb)
    barrier();
    if (s + 1 < steps) {
      LOAD_NEXT(ra, rb)
    }
    COMPUTE()
  }
#endif
  barrier();
  STAMP(3, false)

  // Epilogue, after the loop's last barrier (shared memory is free).
  // Vector stores (flag 4: one split, no activation, rows of C contiguous
  // and 16-byte aligned, N a multiple of 8, the bias absent or a row vector):
  // each subgroup converts a row of its fragments to ELEM in shared memory
  // and writes it back as 16-byte chunks, whole rows of WN halves at once,
  // where coopMatStore straight to C writes 32-byte pieces (with the lean
  // chunk registers, g^T @ x of the MNIST benchmark, K = 128, h = 393216,
  // went from 21 to 62 TFLOP/s on the H200). Otherwise element by
  // element, so that any output strides, the bias's broadcast, the
  // activations and split-K's float32 workspace are handled like the
  // portable kernel does. The vector path's conversion is the driver's
  // (round to nearest on NVIDIA), the element path's X_store's.
  uint64_t c = uint64_t(p.v[2]), bias = uint64_t(p.v[3]), workspace = uint64_t(p.v[26]);
  float alpha = uintBitsToFloat(uint(p.v[20])), beta = uintBitsToFloat(uint(p.v[21]));
  uint lane = gl_SubgroupInvocationID;
  int epi = int(sg) * EPI;
  if ((flags & 4) != 0) {
    [[unroll]] for (int i = 0; i < FM; ++i) {
      int64_t fm = m0 + wm + i * T;
      [[unroll]] for (int j = 0; j < FN; ++j) {
        coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> v = acc[i][j] * alpha;
        if (bias != 0 && beta != 0.0) {
          // 16 copies of the bias's 16 values, as a matrix to add. The chunk
          // past N (N is a multiple of 8) reads zeros.
          int64_t fn = n0 + wn + j * T + (lane % 2) * 8;
          smem[EPI_BIAS + sg * 32 + lane] = fn < N ? Vec8(bias + uint64_t(batch * p.v[17] + fn) * 2u).v : uvec4(0);
          subgroupMemoryBarrierShared();
          subgroupBarrier();
          coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> row;
          coopMatLoad(row, smem, EPI_BIAS + sg * 32, 2, gl_CooperativeMatrixLayoutRowMajor);
          subgroupBarrier();
          v += coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(row) * beta;
        }
        coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> h =
            coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(v);
        coopMatStore(h, smem, epi + j * 2, EPI_PITCH, gl_CooperativeMatrixLayoutRowMajor);
      }
      subgroupMemoryBarrierShared();
      subgroupBarrier();
      // 16 rows of WN halves: WN / 8 chunks a row, consecutive lanes along a row.
      [[unroll]] for (int r = 0; r < T * WN / UNIT / 32; ++r) {
        int e = int(lane) + 32 * r;
        int64_t m = fm + e / (WN / 8), n = n0 + wn + (e % (WN / 8)) * 8;
        if (m < M && n < N)
          Vec8(c + uint64_t(batch * p.v[14] + m * p.v[15] + n) * 2u).v = smem[epi + (e / (WN / 8)) * EPI_PITCH + e % (WN / 8)];
      }
      subgroupBarrier();
    }
    STAMP_END()
    return;
  }
  [[unroll]] for (int i = 0; i < FM; ++i) {
    [[unroll]] for (int j = 0; j < FN; ++j) {
      coopMatStore(acc[i][j], smem, epi, T / 4, gl_CooperativeMatrixLayoutRowMajor);
      subgroupMemoryBarrierShared();
      subgroupBarrier();
      if (workspace != 0 && (flags & 32) != 0) {
        // Workspace rows in 16-byte vectors (flag 32: N a multiple of 4, the
        // workspace aligned), two a lane. Value by value, the float32
        // columns of ResNet-50's 3x3 32x64x56x56 input gradient (231 MB)
        // took 498 us on an H100, in vectors 149 (docs/measurements.md,
        // 2026-12-07).
        [[unroll]] for (int r = 0; r < T * T / 4 / 32; ++r) {
          uint e = lane + 32 * r;
          int64_t m = m0 + wm + i * T + int64_t(e / 4), n = n0 + wn + j * T + int64_t(e % 4) * 4;
          if (m < M && n < N)
            Vec8(workspace + uint64_t(((split * p.v[7] + batch) * M + m) * N + n) * 4u).v = smem[epi + e];
        }
      } else {
        // A constant trip count (subgroups are 32 wide on this tier), so
        // every loop touching acc unrolls and acc stays in registers: with
        // one dynamic index the driver kept all of acc in local memory (so
        // no `continue` in these loops either).
        [[unroll]] for (int r = 0; r < T * T / 32; ++r) {
          uint e = lane + 32 * r;
          int64_t m = m0 + wm + i * T + int64_t(e / T), n = n0 + wn + j * T + int64_t(e % T);
          if (m < M && n < N) {
            float value = uintBitsToFloat(smem[epi + e / 4][e % 4]);
            if (workspace != 0) {
              RefF32(workspace + uint64_t(((split * p.v[7] + batch) * M + m) * N + n) * 4u).v = value;
            } else {
              store_sum(p, value, batch, m, n);
            }
          }
        }
      }
      subgroupBarrier();
    }
  }
  STAMP_END()
}
