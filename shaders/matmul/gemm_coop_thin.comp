// Split-K float32 sums of A @ B for products with at most 16 columns and a
// long K, on tensor cores (VK_KHR_cooperative_matrix, 16x16x16), such as the
// MNIST benchmark's a @ W2^T (128 x 393216 @ 393216 x 10). Both operands are
// contiguous along K in 16-byte vectors (gemm.cpp checks), float16 or
// bfloat16. gemm_splitk_reduce.comp adds the splits and applies the epilogue.
//
// Why: gemm_rows.comp's r12k (the same product taken transposed) issues
// about 17 instructions a value of A (broadcast shared reads, 12 FMAs, the
// decode), about as long as reading A at full bandwidth, so its multiplies
// and loads may take turns (docs/next_gpu_run.md). Here a 16 x 16 x 16 matrix
// multiply covers 256 values of A with B's columns padded to 16, so the
// product is only its loads.
//
// Workgroup g takes a band of 128 rows of A (band g / splits over all
// batches; one subgroup of 32 a 16-row part of it) over split g % splits
// (`chunk` values of K, a multiple of BK). Each step stages BK values of K
// of A's 128 rows and B's 16 columns (zeros past M, N and the split) in
// shared memory in 16-byte vectors, 8 invocations a 128-byte row piece, and
// issues the next step's loads before multiplying.
//
// H100, 2026-12-07, a @ W2^T at h = 393216 in float16: 14.0 TFLOP/s against
// r12k's 8.22 and cuBLAS's 17.0, with 512 splits of 768 and 128 registers.
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

// The products' parameter block (gemm_tiled.comp lists its words): a, b
// addresses (0, 1); M, N, K, batches (4-7); batch/row/col strides of a
// (8-10) and b (11-13); splits, chunk, workspace address (24-26).
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Vec8 { uvec4 v; };
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer Sum { float v; };

const int T = 16, BM = 128, BK = 64;
const int PITCH = (BK + 8) / 8;  // uvec4s a stored row: 8 halves of padding keep fragment rows on distinct banks
const int A_CHUNKS = BM * BK / 8 / WORKGROUP;  // 16-byte loads of A an invocation and step
#if WORKGROUP != 256
#error "one subgroup of 32 a 16-row band of the 128-row tile"
#endif
// A's rows, then B's columns (as rows along K); the epilogue reuses the
// start for the subgroups' 16 x 16 float sums (BM * T floats).
shared uvec4 smem[(BM + T) * PITCH];

void main() {
  Params p = Params(args.meta);
  int64_t M = p.v[4], N = p.v[5], K = p.v[6], batches = p.v[7];
  int64_t splits = p.v[24], chunk = p.v[25];
  int64_t group = int64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  int64_t bands = (M + BM - 1) / BM;
  if (group >= splits * batches * bands) return;
  int64_t split = group % splits, rest = group / splits;
  int64_t batch = rest / bands, m0 = (rest % bands) * BM;
  int64_t k = split * chunk, k_end = min(K, k + chunk);

  // This invocation's loads: A rows row + 32 j (j < A_CHUNKS), B column
  // `row` (the first 128 invocations), each 8 values of K from k + col.
  int t = int(gl_LocalInvocationID.x), row = t / (BK / 8), col = (t % (BK / 8)) * 8;
  uint64_t a_at = uint64_t(p.v[0]) + uint64_t(batch * p.v[8] + (m0 + row) * p.v[9] + k + col) * 2u;
  uint64_t b_at = uint64_t(p.v[1]) + uint64_t(batch * p.v[11] + row * p.v[13] + k + col) * 2u;
  const int A_APART = WORKGROUP / (BK / 8);  // rows between an invocation's chunks of A
  bool b_loader = row < T, b_inside = row < N;
  uvec4 ra[A_CHUNKS], rb;
#define LOADS() \
  [[unroll]] for (int j = 0; j < A_CHUNKS; ++j) \
    ra[j] = m0 + row + j * A_APART < M && k + col < k_end \
                ? Vec8(a_at + uint64_t(j * A_APART * p.v[9]) * 2u).v \
                : uvec4(0); \
  rb = b_loader && b_inside && k + col < k_end ? Vec8(b_at).v : uvec4(0);
  LOADS()

  uint sg = gl_SubgroupID;
  coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> acc =
      coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(0.0);
  int steps = int((k_end - k + BK - 1) / BK);
  for (int s = 0; s < steps; ++s) {
    barrier();  // the previous step's fragments are read
    [[unroll]] for (int j = 0; j < A_CHUNKS; ++j) smem[(row + j * A_APART) * PITCH + col / 8] = ra[j];
    if (b_loader) smem[(BM + row) * PITCH + col / 8] = rb;
    barrier();
    k += BK;
    a_at += BK * 2u;
    b_at += BK * 2u;
    LOADS()
    [[unroll]] for (int kk = 0; kk < BK / T; ++kk) {
      coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseA> fa;
      coopmat<ELEM, gl_ScopeSubgroup, T, T, gl_MatrixUseB> fb;
      coopMatLoad(fa, smem, sg * T * PITCH + kk * 2, PITCH, gl_CooperativeMatrixLayoutRowMajor);
      coopMatLoad(fb, smem, BM * PITCH + kk * 2, PITCH, gl_CooperativeMatrixLayoutColumnMajor);
      acc = coopMatMulAdd(fa, fb, acc);
    }
  }

  // Sum (r, n) of the tile lands at float r * 16 + n of the shared array.
  barrier();
  coopMatStore(acc, smem, sg * T * T / 4, T / 4, gl_CooperativeMatrixLayoutRowMajor);
  barrier();
  uint64_t workspace = uint64_t(p.v[26]) + uint64_t((split * batches + batch) * M * N) * 4u;
  [[unroll]] for (int i = 0; i < BM * T / WORKGROUP; ++i) {
    int e = t + i * WORKGROUP, r = e / T, n = e % T;
    if (m0 + r < M && n < N)
      Sum(workspace + uint64_t((m0 + r) * N + n) * 4u).v = uintBitsToFloat(smem[e / 4][e % 4]);
  }
}
