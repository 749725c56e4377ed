// C = act(alpha * A @ B + beta * bias) for products with few columns (N up
// to COLS) whose operands are both contiguous along K: rows of dot products,
// such as the MNIST benchmark's a @ W2^T (10 classes, K = h) or, transposed
// by the host, a linear layer applied to a few rows (gemm.cpp's
// thin_kernel). Memory bound: at most COLS multiply-adds per value of A.
// float16, bfloat16 and float32, summed in float32.
//
// Each workgroup takes RB rows of A and one split of K; its invocations
// stride along K, so each step reads a contiguous run of every row of A
// and of B^T, and sums RB x COLS partial products. Where the host found
// both operands contiguous in aligned 16-byte vectors along K (flags 1 and
// 2 of word 23, each split a whole number of vectors), each invocation reads
// VEC values of each row a step, as one load. They meet in shared
// memory at the end (one barrier; no subgroup arithmetic, which not every
// device has), and invocation t adds up output t of the block. With one
// split it writes C through the epilogue; with more, each split writes its
// float32 sums to the workspace [splits, batches, M, N] and
// gemm_splitk_reduce.comp adds them up, as for the tiled kernels.
#extension GL_EXT_control_flow_attributes : require

#include "common/math.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
} args;

// The products' parameter block (gemm_tiled.comp lists its words).
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

#include "matmul/float_epilogue.glsl"

const int COLS = 16;  // gemm.cpp's kDotColumns
const int RB = 4;     // gemm.cpp's kDotRows
const int OUTS = RB * COLS;
shared float partial[WORKGROUP * (OUTS + 1)];  // + 1: rows on distinct banks

void main() {
  Params p = Params(args.meta);
  int64_t M = p.v[4], N = p.v[5], K = p.v[6], batches = p.v[7];
  int64_t splits = p.v[24], chunk = p.v[25];
  int64_t blocks = (M + RB - 1) / RB;
  int64_t group = int64_t(uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x);
  int64_t split = group % splits, block = (group / splits) % blocks, batch = group / (splits * blocks);
  if (batch >= batches) return;
  int64_t m0 = block * RB;
  int rows = int(min(M - m0, int64_t(RB))), cols = int(N);
  int t = int(gl_LocalInvocationID.x);
  // The split's end as its start + chunk: written as min(K, (split + 1) *
  // chunk), NVIDIA's compiler (driver 580.159.04) ran every split to K, as
  // in reduce.comp (H100, 2026-12-06: every output wrong and 17x slower).
  int64_t first = split * chunk, k_end = min(K, first + chunk);
  int64_t k_begin = first + t;
  uint64_t a = uint64_t(p.v[0]) + uint64_t(batch * p.v[8] + m0 * p.v[9] + k_begin * p.v[10]) * X_BYTES;
  uint64_t b = uint64_t(p.v[1]) + uint64_t(batch * p.v[11] + k_begin * p.v[12]) * X_BYTES;
  uint64_t a_row = uint64_t(p.v[9]) * X_BYTES, b_col = uint64_t(p.v[13]) * X_BYTES;
  uint64_t a_step = uint64_t(WORKGROUP * p.v[10]) * X_BYTES, b_step = uint64_t(WORKGROUP * p.v[12]) * X_BYTES;

  float acc[RB][COLS];
  [[unroll]] for (int r = 0; r < RB; ++r)[[unroll]] for (int c = 0; c < COLS; ++c) acc[r][c] = 0.0;
  if ((p.v[23] & 3) == 3) {
    uint64_t va = uint64_t(p.v[0]) + uint64_t(batch * p.v[8] + m0 * p.v[9] + first + t * VEC) * X_BYTES;
    uint64_t vb = uint64_t(p.v[1]) + uint64_t(batch * p.v[11] + first + t * VEC) * X_BYTES;
    uint64_t v_step = uint64_t(WORKGROUP * VEC) * X_BYTES;
    for (int64_t k = first + t * VEC; k < k_end; k += WORKGROUP * VEC) {
      float av[RB][VEC];
      [[unroll]] for (int r = 0; r < RB; ++r) {
        if (r < rows) {
          X_loadv(va + uint64_t(r) * a_row, av[r]);
        } else {
          [[unroll]] for (int e = 0; e < VEC; ++e) av[r][e] = 0.0;
        }
      }
      [[unroll]] for (int c = 0; c < COLS; ++c) {
        if (c < cols) {
          float bv[VEC];
          X_loadv(vb + uint64_t(c) * b_col, bv);
          [[unroll]] for (int r = 0; r < RB; ++r)[[unroll]] for (int e = 0; e < VEC; ++e) acc[r][c] += av[r][e] * bv[e];
        }
      }
      va += v_step;
      vb += v_step;
    }
  } else {
    for (int64_t k = k_begin; k < k_end; k += WORKGROUP) {
      float av[RB];
      [[unroll]] for (int r = 0; r < RB; ++r) av[r] = r < rows ? X_load(a + uint64_t(r) * a_row) : 0.0;
      [[unroll]] for (int c = 0; c < COLS; ++c) {
        if (c < cols) {
          float bv = X_load(b + uint64_t(c) * b_col);
          [[unroll]] for (int r = 0; r < RB; ++r) acc[r][c] += av[r] * bv;
        }
      }
      a += a_step;
      b += b_step;
    }
  }
  [[unroll]] for (int r = 0; r < RB; ++r)
    [[unroll]] for (int c = 0; c < COLS; ++c) partial[t * (OUTS + 1) + r * COLS + c] = acc[r][c];
  barrier();

  // Invocation t sums output (t / COLS, t % COLS) of the block over the
  // workgroup's invocations.
  for (int o = t; o < OUTS; o += WORKGROUP) {
    int r = o / COLS, c = o % COLS;
    if (r >= rows || c >= cols) continue;
    float sum = 0.0;
    for (int i = 0; i < WORKGROUP; ++i) sum += partial[i * (OUTS + 1) + o];
    int64_t m = m0 + r;
    if (p.v[26] != 0) {
      RefF32(uint64_t(p.v[26]) + uint64_t(((split * batches + batch) * M + m) * N + c) * 4u).v = sum;
    } else {
      store_sum(p, sum, batch, m, c);
    }
  }
}
