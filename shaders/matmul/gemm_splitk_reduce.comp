// The second step of a split-K product (gemm_coop.comp, gemm_tiled.comp): C =
// act(alpha * (sum of the splits' float32 partial products) + beta * bias),
// one invocation per element of C, any output strides. Same parameter block
// as the products.

#include "common/math.glsl"

layout(push_constant) uniform Args {
  uint64_t meta;
} args;

layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

void main() {
  Params p = Params(args.meta);
  int64_t M = p.v[4], N = p.v[5], batches = p.v[7], splits = p.v[24];
  int64_t i = int64_t(global_index());
  if (i >= batches * M * N) return;
  int64_t n = i % N, m = (i / N) % M, batch = i / (M * N);
  uint64_t c = uint64_t(p.v[2]), bias = uint64_t(p.v[3]), workspace = uint64_t(p.v[26]);
  float sum = 0.0;
  for (int64_t s = 0; s < splits; ++s) sum += RefF32(workspace + uint64_t(s * batches * M * N + i) * 4u).v;
  float value = uintBitsToFloat(uint(p.v[20])) * sum, beta = uintBitsToFloat(uint(p.v[21]));
  // beta == 0 ignores the bias entirely (NaN included), as PyTorch.
  if (bias != 0 && beta != 0.0) {
    value += beta * X_load(bias + uint64_t(batch * p.v[17] + m * p.v[18] + n * p.v[19]) * uint64_t(X_BYTES));
  }
  int activation = int(p.v[22]);
  if (activation == 1) value = max(value, 0.0);
  if (activation == 2) value = gelu_f(value);
  X_store(c + uint64_t(batch * p.v[14] + m * p.v[15] + n * p.v[16]) * uint64_t(X_BYTES), value);
}
