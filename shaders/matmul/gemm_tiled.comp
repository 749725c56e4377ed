// C = act(alpha * A @ B + beta * bias) for batches of [M, K] x [K, N], any
// strides (transposed operands are read in place). The portable tier.
//
// Roles A, B and OUT (C and the bias) share one dtype, except in the
// int32-out variants (gemm_tiled_i32, torch._int_mm): int8 or uint8 A,
// int8 B, summed in int32 (wrapping, as the CPU's).
//
// Each workgroup of WORKGROUP invocations, 16 rows of them, computes a BM x
// BN tile (variants.toml), each invocation a TM x TN block of it held in
// registers, as two row bands TM / 2 wide and half a tile apart and TN / V
// column bands V = TM / 2 wide, BN / (TN / V) apart: the invocations of a row
// then read one contiguous run of shared memory per band, in vectors of V,
// without bank conflicts.
// K advances BK at a time through two shared stages: step t loads tile t + 1
// from memory into registers, multiplies stage t % 2, then stores tile t + 1
// to the other stage (one barrier a step). Shared memory: 2 x BK x (BM + BN +
// 2 PAD) values, 16.5 KiB for 128x128 tiles of float32 (BK 8) and of
// float64 (BK 4): within lavapipe's 32 KiB.
//
// Staging moves chunks of 4 consecutive values along each operand's
// contiguous dimension (K when neither is), one chunk per invocation and
// step for float32 tiles of 256 invocations. Where the host found an operand contiguous that
// way, aligned and a multiple of 4 along it (flag bits 0 and 1), a chunk is
// one load (16 bytes; two for 8-byte types, one of 8 or 4 bytes for
// narrower ones: not measured on a GPU without tensor cores yet), wholly
// inside or outside the bounds; otherwise each value is loaded and
// bounds-checked on its own. Either way every chunk's address is
// computed once and advanced by a constant each step. Measured on the H200
// (float32, benchmark/gemm_tiles.py): the first version, which computed each
// value's int64 address and checks every step, ran 4096^3 at 23.6 TFLOP/s
// (127 registers, two workgroups per SM); chunked 31.9-32.2 (158 registers,
// one workgroup per SM; cuBLAS 51). Without the value-by-value path: 153
// registers, 4% faster; with the orientations fixed at compile time: 171
// registers and 23-24; BK 16: 1% faster, past lavapipe's shared memory.
//
// Split-K (float32 accumulators only; few output tiles, long K): workgroup
// group g takes split g % splits of K (`chunk` values, a multiple of BK) and
// writes its raw sums to a float32 workspace [splits, batches, M, N];
// gemm_splitk_reduce.comp adds them and applies the epilogue.
// Whenever the host passes a workspace, also with one split: a float32
// product from bfloat16 operands (gemm.cpp's bf16_route) takes that path.
#extension GL_EXT_control_flow_attributes : require

#include "common/math.glsl"
#include "matmul/phase_stamps.glsl"
#include "matmul/tile_order.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
} args;

// int64 words (strides in elements): a, b, c, bias addresses; M, N, K, batches;
// batch/row/col strides of a, b, c, bias; alpha and beta as ACC_T bits; activation;
// flags (1: A vector loads, 2: B vector loads, 4: vector stores of a float32
// out, 8: A staged along K, 16: B staged along K (gemm.cpp's k_major), 32:
// vector stores of a float32 workspace); splits, chunk, workspace address.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

// The accumulators: out's compute type.
#if defined(OUT_DT_F64)
#define ACC_T double
#define ACC_V2 dvec2
#define ACC_V4 dvec4
#define ACC_BITS(x) uint64BitsToDouble(uint64_t(x))
#elif defined(OUT_DT_F16) || defined(OUT_DT_BF16) || defined(OUT_DT_F32)
#define ACC_T float
#define ACC_V2 vec2
#define ACC_V4 vec4
#define ACC_BITS(x) uintBitsToFloat(uint(x))
#elif defined(OUT_DT_I64)
#define ACC_T int64_t
#define ACC_V2 i64vec2
#define ACC_V4 i64vec4
#define ACC_BITS(x) int64_t(x)
#else
#define ACC_T int
#define ACC_V2 ivec2
#define ACC_V4 ivec4
#define ACC_BITS(x) int(x)
#endif

const int TY = 16, TX = WORKGROUP / TY;  // invocations along M and along N
const int TM = BM / TY, TN = BN / TX;    // block per invocation (TM 4 or 8)
const int V = TM / 2;                    // band width, the shared vectors' length
const int CB = TN / V;                   // column bands
#if (BN / (WORKGROUP / 16)) % (BM / 32) != 0
#error "an invocation's columns must be whole bands: TN a multiple of TM / 2"
#endif
#if BM / 16 == 8
#define ACC_V ACC_V4
#else
#define ACC_V ACC_V2
#endif
// V consecutive float32 values of a row of C, the bias or the workspace
// (the epilogue's vector stores).
#if defined(OUT_DT_F16) || defined(OUT_DT_BF16) || defined(OUT_DT_F32)
#define FLOAT_SUMS
#if BM / 16 == 8
layout(buffer_reference, std430, buffer_reference_align = 16) buffer RowV { vec4 v; };
#else
layout(buffer_reference, std430, buffer_reference_align = 8) buffer RowV { vec2 v; };
#endif
#endif
// 8-byte accumulators take half the K step, so both stages fit 32 KiB.
#if defined(OUT_DT_F64) || defined(OUT_DT_I64)
const int BK = BK_WIDE / 2;
#else
const int BK = BK_WIDE;
#endif
const int PAD = V;  // keeps rows of 16-byte vectors on distinct banks when staged by columns
const int ROW_A = (BM + PAD) / V, ROW_B = (BN + PAD) / V;  // vectors per stored row
shared ACC_V tile_a[2 * BK * ROW_A];
shared ACC_V tile_b[2 * BK * ROW_B];
const int CHUNK = 4;
// VECTORS (t128wv): the host takes the variant only where both operands are
// vector-loadable, so the value-by-value load path is compiled out.
#ifdef VECTORS
const bool ALL_VECTORS = true;
#else
const bool ALL_VECTORS = false;
#endif
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Chunk8 { uvec2 v; };
const int CHUNKS_A = BM * BK / CHUNK, CHUNKS_B = BN * BK / CHUNK;  // per step
const int PER_A = (CHUNKS_A + WORKGROUP - 1) / WORKGROUP, PER_B = (CHUNKS_B + WORKGROUP - 1) / WORKGROUP;  // per invocation

// An operand seen as [rows, K] (A as it is, B transposed). Chunk j of an
// invocation's share of a step is c = invocation + WORKGROUP j (when c < the
// step's chunks) at (row, k) of the tile: along K when k_major, else along
// the rows, so that neighbouring invocations read neighbouring addresses.
struct Operand {
  int64_t rows, cols;
  int64_t stride_rows, stride_k;
  int tile;
  bool k_major, vec;
};

ivec2 chunk_at(Operand o, int j) {
  int c = int(gl_LocalInvocationID.x) + WORKGROUP * j;
  return o.k_major ? ivec2(c / (BK / CHUNK), (c % (BK / CHUNK)) * CHUNK)
                   : ivec2((c % (o.tile / CHUNK)) * CHUNK, c / (o.tile / CHUNK));
}

bool chunk_exists(Operand o, int j) {
  return int(gl_LocalInvocationID.x) + WORKGROUP * j < o.tile * BK / CHUNK;
}

// A chunk's values; `is_b` (a literal at each call, so that the compiler
// drops the other role's code) decodes them as B's dtype, else as A's: the
// two share a width and differ at most in signedness.
#if A_BYTES != B_BYTES
#error "A and B must share a width"
#endif
ACC_V4 load_chunk(Operand o, bool is_b, uint64_t address, int64_t row, int64_t k) {
  if (o.vec) {
    if (row >= o.rows || k >= o.cols) return ACC_V4(0);
#if VEC == 4
    // 4- and 8-byte values: A and B of one dtype.
    A_T v[VEC];
    if (is_b) {
      B_loadv(address, v);
    } else {
      A_loadv(address, v);
    }
    return ACC_V4(v[0], v[1], v[2], v[3]);
#else
    // 1- and 2-byte values: the chunk is one 4- or 8-byte load.
#if A_BYTES == 2
    uvec2 w = Chunk8(address).v;
#else
    uvec2 w = uvec2(RefU32(address).v, 0u);
#endif
    ACC_V4 v;
    [[unroll]] for (int i = 0; i < CHUNK; ++i) {
      uint bits = bitfieldExtract(w[i * A_BYTES / 4], i * A_BYTES % 4 * 8, A_BYTES * 8);
      v[i] = is_b ? ACC_T(B_from_bits(bits)) : ACC_T(A_from_bits(bits));
    }
    return v;
#endif
  }
  uint64_t step = uint64_t(o.k_major ? o.stride_k : o.stride_rows) * A_BYTES;
  ACC_V4 v;
  [[unroll]] for (int i = 0; i < CHUNK; ++i) {
    bool inside = o.k_major ? row < o.rows && k + i < o.cols : row + i < o.rows && k < o.cols;
    uint64_t at = address + uint64_t(i) * step;
    v[i] = inside ? (is_b ? ACC_T(B_load(at)) : ACC_T(A_load(at))) : ACC_T(0);
  }
  return v;
}

void main() {
  Params p = Params(args.meta);
  uint64_t a = uint64_t(p.v[0]), b = uint64_t(p.v[1]), c = uint64_t(p.v[2]), bias = uint64_t(p.v[3]);
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
  int64_t a_row = p.v[9], a_col = p.v[10], b_row = p.v[12], b_col = p.v[13];
  Operand oa = Operand(M, K, a_row, a_col, BM, (flags & 8) != 0, ALL_VECTORS || (flags & 1) != 0);
  Operand ob = Operand(N, K, b_col, b_row, BN, (flags & 16) != 0, ALL_VECTORS || (flags & 2) != 0);
  a += uint64_t(batch * p.v[8]) * A_BYTES;
  b += uint64_t(batch * p.v[11]) * B_BYTES;
  int tid = int(gl_LocalInvocationID.x);
  int ty = tid / TX, tx = tid % TX;

  // Each chunk's address at the current step; its row and k within the tile.
  uint64_t ad[PER_A], bd[PER_B];
  [[unroll]] for (int j = 0; j < PER_A; ++j) {
    ivec2 at = chunk_at(oa, j);
    ad[j] = a + uint64_t((m0 + at.x) * a_row + (k_begin + at.y) * a_col) * A_BYTES;
  }
  [[unroll]] for (int j = 0; j < PER_B; ++j) {
    ivec2 at = chunk_at(ob, j);
    bd[j] = b + uint64_t((n0 + at.x) * b_col + (k_begin + at.y) * b_row) * B_BYTES;
  }
  uint64_t a_step = uint64_t(BK * a_col) * A_BYTES, b_step = uint64_t(BK * b_row) * B_BYTES;

  ACC_V4 ra[PER_A], rb[PER_B];
#define LOAD_TILE(K0) \
  [[unroll]] for (int j = 0; j < PER_A; ++j) { \
    ivec2 at = chunk_at(oa, j); \
    ra[j] = chunk_exists(oa, j) ? load_chunk(oa, false, ad[j], m0 + at.x, (K0) + at.y) : ACC_V4(0); \
    ad[j] += a_step; \
  } \
  [[unroll]] for (int j = 0; j < PER_B; ++j) { \
    ivec2 at = chunk_at(ob, j); \
    rb[j] = chunk_exists(ob, j) ? load_chunk(ob, true, bd[j], n0 + at.x, (K0) + at.y) : ACC_V4(0); \
    bd[j] += b_step; \
  }
// A chunk along K fills 4 stored rows at one position; one along the rows
// fills 4 consecutive positions of one stored row (one or two vectors).
#define STORE_CHUNK(TILE, ROW, O, R, STAGE) \
  if (chunk_exists(O, j)) { \
    ivec2 at = chunk_at(O, j); \
    if ((O).k_major) { \
      [[unroll]] for (int i = 0; i < CHUNK; ++i) TILE[((STAGE) * BK + at.y + i) * ROW + at.x / V][at.x % V] = R[j][i]; \
    } else { \
      [[unroll]] for (int h = 0; h < CHUNK / V; ++h) { \
        ACC_V part; \
        [[unroll]] for (int i = 0; i < V; ++i) part[i] = R[j][h * V + i]; \
        TILE[((STAGE) * BK + at.y) * ROW + at.x / V + h] = part; \
      } \
    } \
  }
#define STORE_TILE(STAGE) \
  [[unroll]] for (int j = 0; j < PER_A; ++j) STORE_CHUNK(tile_a, ROW_A, oa, ra, STAGE) \
  [[unroll]] for (int j = 0; j < PER_B; ++j) STORE_CHUNK(tile_b, ROW_B, ob, rb, STAGE)

  ACC_V acc[2][V][CB];  // [row band][row in band][column band]
  [[unroll]] for (int i = 0; i < 2; ++i)
    [[unroll]] for (int r = 0; r < V; ++r)[[unroll]] for (int j = 0; j < CB; ++j) acc[i][r][j] = ACC_V(0);

  int steps = int((k_end - k_begin + BK - 1) / BK);
  LOAD_TILE(k_begin)
  STORE_TILE(0)
  barrier();
  STAMP(2, false)
  for (int s = 0; s < steps; ++s) {
    int cur = s & 1;
    bool more = s + 1 < steps;
    if (more) {
      LOAD_TILE(k_begin + int64_t(s + 1) * BK)
    }
    [[unroll]] for (int k = 0; k < BK; ++k) {
      int row = (cur * BK + k);
      ACC_V fa[2], fb[CB];
      fa[0] = tile_a[row * ROW_A + ty];
      fa[1] = tile_a[row * ROW_A + TY + ty];
      [[unroll]] for (int j = 0; j < CB; ++j) fb[j] = tile_b[row * ROW_B + j * TX + tx];
      [[unroll]] for (int i = 0; i < 2; ++i)
        [[unroll]] for (int r = 0; r < V; ++r)[[unroll]] for (int j = 0; j < CB; ++j) acc[i][r][j] += fa[i][r] * fb[j];
    }
    if (more) {
      STORE_TILE(cur ^ 1)
    }
    barrier();
  }
  STAMP(3, false)

  ACC_T alpha = ACC_BITS(p.v[20]), beta = ACC_BITS(p.v[21]);
#ifdef FLOAT_SUMS
  // Vector stores: an invocation's V consecutive columns of a row are one
  // store, of a float32 out (flag 4: one split, no activation, rows of C
  // contiguous and aligned, N a multiple of 8, the bias absent or a row
  // vector) or of the float32 workspace's raw sums (flag 32: N a multiple of
  // 4, the workspace aligned). Element by element, the epilogue of t128wv at
  // 4096^3 took a median 59 of a workgroup's 1,021 us (H100, 2026-12-07,
  // coop_phases.py --tile qt128): all 264 resident workgroups store at once,
  // each 4-byte store a quarter of the 16 bytes a lane could write. In
  // vectors it takes 5.8 us and the product runs at 36.2 TFLOP/s against
  // 34.3 (cuBLAS without TF32 51: 0.71; H100, 2026-12-07, gemm_tiles.py).
  uint64_t sums = uint64_t(p.v[26]);
#ifdef OUT_DT_F32
  bool out_vectors = (flags & 4) != 0;
#else
  bool out_vectors = false;
#endif
  if (out_vectors || (sums != 0 && (flags & 32) != 0)) {
    [[unroll]] for (int i = 0; i < 2; ++i) {
      [[unroll]] for (int r = 0; r < V; ++r) {
        int64_t m = m0 + i * (BM / 2) + ty * V + r;
        uint64_t row = sums != 0 ? sums + uint64_t(((split * p.v[7] + batch) * M + m) * N) * 4u
                                 : c + uint64_t(batch * p.v[14] + m * p.v[15]) * 4u;
        [[unroll]] for (int j = 0; j < CB; ++j) {
          int64_t n = n0 + j * (BN / CB) + tx * V;
          if (m < M && n < N) {
            ACC_V value = acc[i][r][j];
            if (sums == 0) {
              value *= alpha;
              if (bias != 0 && beta != ACC_T(0)) value += beta * RowV(bias + uint64_t(batch * p.v[17] + n) * 4u).v;
            }
            RowV(row + uint64_t(n) * 4u).v = value;
          }
        }
      }
    }
    STAMP_END()
    return;
  }
#endif
  int activation = int(p.v[22]);
  [[unroll]] for (int i = 0; i < 2; ++i) {
    [[unroll]] for (int r = 0; r < V; ++r) {
      int64_t m = m0 + i * (BM / 2) + ty * V + r;
      [[unroll]] for (int j = 0; j < CB; ++j) {
        [[unroll]] for (int q = 0; q < V; ++q) {
          int64_t n = n0 + j * (BN / CB) + tx * V + q;
          // No `continue` and no early exit: spirv-opt then leaves these
          // loops rolled, and acc's dynamic indices push it to local memory.
          bool inside = m < M && n < N;
#if defined(OUT_DT_F16) || defined(OUT_DT_BF16) || defined(OUT_DT_F32)
          if (inside && p.v[26] != 0) {
            RefF32(uint64_t(p.v[26]) + uint64_t(((split * p.v[7] + batch) * M + m) * N + n) * 4u).v = acc[i][r][j][q];
            inside = false;
          }
#endif
          if (inside) {
            ACC_T value = alpha * acc[i][r][j][q];
            // beta == 0 ignores the bias entirely (NaN included), as PyTorch.
            if (bias != 0 && beta != ACC_T(0)) {
              value += beta * ACC_T(OUT_load(bias + uint64_t(batch * p.v[17] + m * p.v[18] + n * p.v[19]) * OUT_BYTES));
            }
            if (activation == 1) value = max(value, ACC_T(0));
#if defined(OUT_DT_F16) || defined(OUT_DT_BF16) || defined(OUT_DT_F32)
            if (activation == 2) value = gelu_f(value);
#endif
            OUT_store(c + uint64_t(batch * p.v[14] + m * p.v[15] + n * p.v[16]) * OUT_BYTES, OUT_T(value));
          }
        }
      }
    }
  }
  STAMP_END()
}
