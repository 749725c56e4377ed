// C = act(alpha * A @ B + beta * bias) for batches of [M, K] x [K, N], any
// strides (transposed operands are read in place). The portable tier: 64x64
// output tiles per workgroup of 256 invocations, each accumulating a 4x4
// block, with A and B staged through shared memory 16 columns of K at a time
// (8 KiB: fits lavapipe's 32 KiB and every other device).

layout(constant_id = 0) const uint kWorkgroupSize = 256;  // fixed by the tile shape below

#include "common/math.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
} args;

// int64 words (strides in elements): a, b, c, bias addresses; M, N, K, batches;
// batch/row/col strides of a, b, c, bias; alpha and beta as ACC_T bits; activation.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

#if defined(X_DT_F64)
#define ACC_T double
#define ACC_BITS(x) uint64BitsToDouble(uint64_t(x))
#elif defined(X_DT_F16) || defined(X_DT_BF16) || defined(X_DT_F32)
#define ACC_T float
#define ACC_BITS(x) uintBitsToFloat(uint(x))
#else
#define ACC_T X_T
#define ACC_BITS(x) X_T(x)
#endif

const int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;
shared ACC_T tile_a[BK][BM + 1];
shared ACC_T tile_b[BK][BN + 1];

void main() {
  Params p = Params(args.meta);
  uint64_t a = uint64_t(p.v[0]), b = uint64_t(p.v[1]), c = uint64_t(p.v[2]), bias = uint64_t(p.v[3]);
  int64_t M = p.v[4], N = p.v[5], K = p.v[6];
  int64_t tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  int64_t batch = int64_t(group) / (tiles_m * tiles_n);
  if (batch >= p.v[7]) return;
  int64_t tile = int64_t(group) - batch * tiles_m * tiles_n;
  int64_t m0 = (tile / tiles_n) * BM, n0 = (tile % tiles_n) * BN;
  int64_t a_row = p.v[9], a_col = p.v[10], b_row = p.v[12], b_col = p.v[13];
  a += uint64_t(batch * p.v[8]) * X_BYTES;
  b += uint64_t(batch * p.v[11]) * X_BYTES;
  int tid = int(gl_LocalInvocationID.x);
  int tm = (tid / (BN / TN)) * TM, tn = (tid % (BN / TN)) * TN;

  ACC_T acc[TM][TN];
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) acc[i][j] = ACC_T(0);

  for (int64_t k0 = 0; k0 < K; k0 += BK) {
    // Stage the A and B tiles; neighbouring invocations read along the
    // operand's contiguous dimension.
    for (int e = tid; e < BM * BK; e += int(kWorkgroupSize)) {
      int m = a_col == 1 ? e / BK : e % BM;
      int k = a_col == 1 ? e % BK : e / BM;
      int64_t gm = m0 + m, gk = k0 + k;
      tile_a[k][m] = gm < M && gk < K ? ACC_T(X_load(a + uint64_t(gm * a_row + gk * a_col) * X_BYTES)) : ACC_T(0);
    }
    for (int e = tid; e < BK * BN; e += int(kWorkgroupSize)) {
      int n = b_col == 1 ? e % BN : e / BK;
      int k = b_col == 1 ? e / BN : e % BK;
      int64_t gn = n0 + n, gk = k0 + k;
      tile_b[k][n] = gn < N && gk < K ? ACC_T(X_load(b + uint64_t(gk * b_row + gn * b_col) * X_BYTES)) : ACC_T(0);
    }
    barrier();
    for (int k = 0; k < BK; ++k) {
      ACC_T ra[TM], rb[TN];
      for (int i = 0; i < TM; ++i) ra[i] = tile_a[k][tm + i];
      for (int j = 0; j < TN; ++j) rb[j] = tile_b[k][tn + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i][j] += ra[i] * rb[j];
    }
    barrier();
  }

  ACC_T alpha = ACC_BITS(p.v[20]), beta = ACC_BITS(p.v[21]);
  int activation = int(p.v[22]);
  for (int i = 0; i < TM; ++i) {
    int64_t m = m0 + tm + i;
    if (m >= M) break;
    for (int j = 0; j < TN; ++j) {
      int64_t n = n0 + tn + j;
      if (n >= N) break;
      ACC_T value = alpha * acc[i][j];
      // beta == 0 ignores the bias entirely (NaN included), as PyTorch.
      if (bias != 0 && beta != ACC_T(0)) {
        value += beta * ACC_T(X_load(bias + uint64_t(batch * p.v[17] + m * p.v[18] + n * p.v[19]) * X_BYTES));
      }
#if defined(X_DT_F16) || defined(X_DT_BF16) || defined(X_DT_F32)
      if (activation == 1) value = max(value, ACC_T(0));
      if (activation == 2) value = gelu_f(value);
#else
      if (activation == 1) value = max(value, ACC_T(0));
#endif
      X_store(c + uint64_t(batch * p.v[14] + m * p.v[15] + n * p.v[16]) * X_BYTES, X_T(value));
    }
  }
}
