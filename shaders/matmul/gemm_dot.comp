// C = act(alpha * A @ B + beta * bias) for products with few columns (N up
// to COLS) whose operands are both contiguous along K: rows of dot products,
// such as the MNIST benchmark's a @ W2^T (10 classes, K = h) or, transposed
// by the host, a linear layer applied to a few rows (gemm.cpp's
// thin_kernel). Memory bound: at most COLS multiply-adds per value of A.
// float16, bfloat16 and float32, summed in float32.
//
// The workgroup is TEAMS teams of LANES consecutive invocations (a team is
// a subgroup on NVIDIA, but nothing here needs it to be one). Team u takes
// RB rows of A; the workgroup's TEAMS x RB rows share a split of K. The
// lanes of a team stride along K a vector (VEC values, 16 bytes) apiece, so
// every load of a team reads LANES x 16 contiguous bytes of one row. Each
// step's vectors of B are staged in shared memory by the whole workgroup,
// the next step's loaded into registers before the current one is
// multiplied (two barriers a step); the next step's vectors of A likewise,
// so two steps of A are in flight. Taken only when forced (TORCHVULKAN_GEMM_TILE=dot).
// H100, float16, TFLOP/s (2026-12-06; cuBLAS 17.1 and 41.2):
// - a @ W2^T of the MNIST benchmark 7.99 against gemm_rows.comp's r12k's
//   7.83 (with the split sum of the day), linear 16 x 4096 -> 14336 9.87
//   against r16k's 11.3;
// - reading B from memory per column instead, each team its own (loads
//   inside each column's `if (c < cols)`): 5.69 and 8.02 in an earlier run
//   (r16k 7.34 and 11.2), whatever the workgroup count;
// - the first form, a block of 4 rows a workgroup of 64: 3.02 and 5.36.
//
// SCALAR (the "any" variant): one value a step instead of a vector, for
// operands that are not vector-loadable (K or a stride not a multiple of
// VEC, or misaligned); a variant of its own so that the vector path carries
// no second path's registers (gemm_coop.comp's VECTORS says why).
//
// The lanes' sums meet in shared memory, one row of the team's at a time.
// With one split the sums go through the epilogue; with more, each split
// writes its float32 sums to the workspace [splits, batches, M, N] and
// gemm_splitk_reduce.comp adds them up, as for the tiled kernels.
#extension GL_EXT_control_flow_attributes : require

#include "common/math.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
} args;

// The products' parameter block (gemm_tiled.comp lists its words).
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

#include "matmul/float_epilogue.glsl"
#include "matmul/raw_vector.glsl"

const int COLS = 16;  // gemm.cpp's kThin
const int RB = 4;     // rows a team (gemm.cpp's kDotRows is RB x TEAMS)
const int LANES = 32;
const int TEAMS = WORKGROUP / LANES;
shared float partial[WORKGROUP * (COLS + 1)];  // + 1: lanes on distinct banks

#ifdef SCALAR
const int CW = 1;
#define RAW float
RAW load_raw(uint64_t address) { return X_load(address); }
float element(RAW w, int e) { return w; }
#else
const int CW = VEC;
#define RAW uvec4
RAW load_raw(uint64_t address) { return Raw16(address).v; }
#endif

shared RAW b_tile[COLS][LANES];

void main() {
  Params p = Params(args.meta);
  int64_t M = p.v[4], N = p.v[5], K = p.v[6], batches = p.v[7];
  int64_t splits = p.v[24], chunk = p.v[25];
  int64_t blocks = (M + TEAMS * RB - 1) / (TEAMS * RB);
  int64_t group = int64_t(uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x);
  int64_t split = group % splits, block = (group / splits) % blocks, batch = group / (splits * blocks);
  if (batch >= batches) return;
  int t = int(gl_LocalInvocationID.x), team = t / LANES, lane = t % LANES;
  int64_t m0 = (block * TEAMS + team) * RB;
  int rows = int(clamp(M - m0, int64_t(0), int64_t(RB))), cols = int(N);
  // The split's end as its start + chunk: written as min(K, (split + 1) *
  // chunk), NVIDIA's compiler (driver 580.159.04) ran every split to K, as
  // in reduce.comp (H100, 2026-12-06: every output wrong and 17x slower).
  int64_t k_begin = split * chunk, k_end = min(K, k_begin + chunk);
  uint64_t a = uint64_t(p.v[0]) + uint64_t(batch * p.v[8] + m0 * p.v[9]) * X_BYTES;
  uint64_t b = uint64_t(p.v[1]) + uint64_t(batch * p.v[11]) * X_BYTES;
  uint64_t a_row = uint64_t(p.v[9]) * X_BYTES, b_col = uint64_t(p.v[13]) * X_BYTES;

  float acc[RB][COLS];
  [[unroll]] for (int r = 0; r < RB; ++r)[[unroll]] for (int c = 0; c < COLS; ++c) acc[r][c] = 0.0;
  // Both operands have K's stride 1 (the host checks), and each split is a
  // whole number of vectors.
  const int64_t stride = LANES * CW;
  int64_t k = k_begin + lane * CW;
  RAW now[RB];
  [[unroll]] for (int r = 0; r < RB; ++r)
    now[r] = r < rows && k < k_end ? load_raw(a + uint64_t(r) * a_row + uint64_t(k) * X_BYTES) : RAW(0);
  // Invocation t stages (column, lane) t, t + WORKGROUP, ... of a step.
  const int BV = (COLS * LANES + WORKGROUP - 1) / WORKGROUP;
  RAW bn[BV];
#define LOAD_B(BASE) \
  [[unroll]] for (int j = 0; j < BV; ++j) { \
    int v = t + j * WORKGROUP, c = v / LANES; \
    int64_t kv = (BASE) + (v % LANES) * CW; \
    bn[j] = c < cols && kv < k_end ? load_raw(b + uint64_t(c) * b_col + uint64_t(kv) * X_BYTES) : RAW(0); \
  }
#define STASH_B() \
  [[unroll]] for (int j = 0; j < BV; ++j) { \
    int v = t + j * WORKGROUP; \
    if (v < COLS * LANES) b_tile[v / LANES][v % LANES] = bn[j]; \
  }
  LOAD_B(k_begin)
  STASH_B()
  // Every invocation takes every step (barriers), whether its team has rows or not.
  for (int64_t base = k_begin; base < k_end; base += stride, k += stride) {
    RAW next[RB];
    [[unroll]] for (int r = 0; r < RB; ++r)
      next[r] = r < rows && k + stride < k_end ? load_raw(a + uint64_t(r) * a_row + uint64_t(k + stride) * X_BYTES)
                                               : RAW(0);
    LOAD_B(base + stride)
    barrier();
    [[unroll]] for (int c = 0; c < COLS; ++c) {
      if (c < cols) {
        RAW w = b_tile[c][lane];
        [[unroll]] for (int e = 0; e < CW; ++e) {
          float bv = element(w, e);
          [[unroll]] for (int r = 0; r < RB; ++r) acc[r][c] += element(now[r], e) * bv;
        }
      }
    }
    [[unroll]] for (int r = 0; r < RB; ++r) now[r] = next[r];
    barrier();
    STASH_B()
  }

  // Row r of every team: the team's lanes' sums, added in lane order by
  // invocation (u, c) = (t / COLS, t % COLS).
  [[unroll]] for (int r = 0; r < RB; ++r) {
    barrier();
    [[unroll]] for (int c = 0; c < COLS; ++c) partial[t * (COLS + 1) + c] = acc[r][c];
    barrier();
    int u = t / COLS, c = t % COLS;
    int64_t m = (block * TEAMS + u) * RB + r;
    if (u < TEAMS && m < M && c < cols) {
      float sum = 0.0;
      for (int l = 0; l < LANES; ++l) sum += partial[(u * LANES + l) * (COLS + 1) + c];
      if (p.v[26] != 0) {
        RefF32(uint64_t(p.v[26]) + uint64_t(((split * batches + batch) * M + m) * N + c) * 4u).v = sum;
      } else {
        store_sum(p, sum, batch, m, c);
      }
    }
  }
}
