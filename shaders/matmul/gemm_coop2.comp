// C = alpha * A @ B for batches of [M, K] x [K, N] in float16 or bfloat16
// with float32 accumulation, through VK_NV_cooperative_matrix2: one
// workgroup-scope BM x BN accumulator per workgroup, operands loaded tile by
// tile straight from memory by tensor layouts, so that the driver chooses
// the staging through shared memory and its pipelining (gemm_coop.comp
// stages by hand through one shared stage, held back by the 48 KiB of
// shared memory and 255 registers a lane).
//
// Tensor layouts clamp: a tile reaching past an operand's edge reads zeros,
// and the store past C's edge is dropped, so any M, N, K need no checks
// here. Each operand is described as stored, rows of its contiguous
// dimension; an operand stored the other way round (A with M contiguous, B
// with K contiguous) is read through a transposing view. The host takes
// this tier for outputs with contiguous rows and no bias or activation.
//
// Split-K as gemm_coop.comp: workgroup group g takes split g % splits of K
// and, when the host passes a workspace, stores its float32 sums there
// ([splits, batches, M, N]) for gemm_splitk_reduce.comp.
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_control_flow_attributes : require

#if defined(X_DT_BF16)
#extension GL_EXT_bfloat16 : require
#define ELEM bfloat16_t
#else
#define ELEM float16_t
#endif

#include "matmul/tile_order.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
} args;

// The parameter block of gemm_coop.comp (gemm.cpp's launch_gemm).
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Elems { ELEM v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Floats { float v[]; };

void main() {
  Params p = Params(args.meta);
  uint M = uint(p.v[4]), N = uint(p.v[5]), K = uint(p.v[6]);
  uint64_t tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint64_t splits = uint64_t(p.v[24]);
  uint split = uint(group % splits);
  group /= splits;
  uint chunk = uint(p.v[25]);
  uint k_begin = split * chunk, k_end = min(K, k_begin + chunk);
  uint64_t batch = group / (tiles_m * tiles_n);
  if (batch >= uint64_t(p.v[7])) return;
  i64vec2 tile = tile_in_band(int64_t(group - batch * tiles_m * tiles_n), int64_t(tiles_m), int64_t(tiles_n));
  uint m0 = uint(tile.x) * BM, n0 = uint(tile.y) * BN;

  // Each operand as stored: [rows, cols] with rows `pitch` elements apart.
  Elems a = Elems(uint64_t(p.v[0]) + uint64_t(batch * p.v[8]) * 2u);
  Elems b = Elems(uint64_t(p.v[1]) + uint64_t(batch * p.v[11]) * 2u);
  tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> la =
      createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
  tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> lb =
      createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
#if A_KMAJOR
  la = setTensorLayoutDimensionNV(la, M, K);
  la = setTensorLayoutStrideNV(la, uint(p.v[9]), 1);
#else
  la = setTensorLayoutDimensionNV(la, K, M);
  la = setTensorLayoutStrideNV(la, uint(p.v[10]), 1);
#endif
#if B_KMAJOR
  lb = setTensorLayoutDimensionNV(lb, N, K);
  lb = setTensorLayoutStrideNV(lb, uint(p.v[13]), 1);
#else
  lb = setTensorLayoutDimensionNV(lb, K, N);
  lb = setTensorLayoutStrideNV(lb, uint(p.v[12]), 1);
#endif
  tensorViewNV<2, false, 1, 0> transposed = createTensorViewNV(2, false, 1, 0);

  coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator> acc =
      coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>(0.0);
  for (uint k = k_begin; k < k_end; k += BK) {
    coopmat<ELEM, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA> ma;
    coopmat<ELEM, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB> mb;
#if A_KMAJOR
    coopMatLoadTensorNV(ma, a.v, 0, sliceTensorLayoutNV(la, m0, BM, k, BK));
#else
    coopMatLoadTensorNV(ma, a.v, 0, sliceTensorLayoutNV(la, k, BK, m0, BM), transposed);
#endif
#if B_KMAJOR
    coopMatLoadTensorNV(mb, b.v, 0, sliceTensorLayoutNV(lb, n0, BN, k, BK), transposed);
#else
    coopMatLoadTensorNV(mb, b.v, 0, sliceTensorLayoutNV(lb, k, BK, n0, BN));
#endif
    acc = coopMatMulAdd(ma, mb, acc);
  }

  tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> lc =
      createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
  lc = setTensorLayoutDimensionNV(lc, M, N);
  uint64_t workspace = uint64_t(p.v[26]);
  if (workspace != 0) {
    lc = setTensorLayoutStrideNV(lc, N, 1);
    Floats sums = Floats(workspace + ((uint64_t(split) * uint64_t(p.v[7]) + batch) * M * N) * 4u);
    coopMatStoreTensorNV(acc, sums.v, 0, sliceTensorLayoutNV(lc, m0, BM, n0, BN));
    return;
  }
  float alpha = uintBitsToFloat(uint(p.v[20]));
  coopmat<ELEM, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator> result =
      coopmat<ELEM, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>(acc * alpha);
  lc = setTensorLayoutStrideNV(lc, uint(p.v[15]), 1);
  Elems c = Elems(uint64_t(p.v[2]) + uint64_t(batch * p.v[14]) * 2u);
  coopMatStoreTensorNV(result, c.v, 0, sliceTensorLayoutNV(lc, m0, BM, n0, BN));
}
