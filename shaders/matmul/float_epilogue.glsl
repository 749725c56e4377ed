// The epilogue of the kernels that sum in float32 whatever X is
// (gemm_coop.comp's element path, gemm_splitk_reduce.comp, gemm_dot.comp):
// out[batch, m, n] = act(alpha * sum + beta * bias[batch, m, n]) in the
// products' parameter block (gemm_tiled.comp lists its words). beta == 0 ignores the bias
// entirely (NaN included), as PyTorch does.
void store_sum(Params p, float sum, int64_t batch, int64_t m, int64_t n) {
  float value = uintBitsToFloat(uint(p.v[20])) * sum, beta = uintBitsToFloat(uint(p.v[21]));
  uint64_t bias = uint64_t(p.v[3]);
  if (bias != 0 && beta != 0.0) {
    value += beta * X_load(bias + uint64_t(batch * p.v[17] + m * p.v[18] + n * p.v[19]) * uint64_t(X_BYTES));
  }
  int activation = int(p.v[22]);
  if (activation == 1) value = max(value, 0.0);
  if (activation == 2) value = gelu_f(value);
  X_store(uint64_t(p.v[2]) + uint64_t(batch * p.v[14] + m * p.v[15] + n * p.v[16]) * uint64_t(X_BYTES), value);
}
