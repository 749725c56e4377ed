// adaptive_max_pool2d, one invocation per output element, as the CPU's
// kernel: output row oh covers input rows [floor(oh * H / Ho),
// ceil((oh + 1) * H / Ho)), columns likewise; the window keeps its first
// largest value, a NaN replacing it, and its index counts positions in the
// input's H x W plane.
layout(push_constant) uniform Args {
  uint64_t params;
} args;

// int64 words (csrc/aten/ops/pool/planes.h): input, values, indices
// addresses; planes (N * C), C, H, W, out H, out W; strides (elements) n, c,
// h, w of the input, of the values and of the indices.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

int64_t first(int64_t o, int64_t outs, int64_t ins) { return (o * ins) / outs; }
int64_t last(int64_t o, int64_t outs, int64_t ins) { return ((o + 1) * ins + outs - 1) / outs; }

void main() {
  Params p = Params(args.params);
  int64_t C = p.v[4], H = p.v[5], W = p.v[6], Ho = p.v[7], Wo = p.v[8];
  int64_t i = int64_t(global_index());
  if (i >= p.v[3] * Ho * Wo) return;
  int64_t ow = i % Wo, oh = (i / Wo) % Ho, plane = i / (Wo * Ho), n = plane / C, c = plane % C;
  int64_t h0 = first(oh, Ho, H), h1 = last(oh, Ho, H), w0 = first(ow, Wo, W), w1 = last(ow, Wo, W);
  uint64_t plane_at = uint64_t(p.v[0]) + uint64_t(n * p.v[9] + c * p.v[10]) * X_BYTES;
  X_T best = X_load(plane_at + uint64_t(h0 * p.v[11] + w0 * p.v[12]) * X_BYTES);
  int64_t best_index = h0 * W + w0;
  for (int64_t h = h0; h < h1; ++h) {
    for (int64_t w = w0; w < w1; ++w) {
      X_T v = X_load(plane_at + uint64_t(h * p.v[11] + w * p.v[12]) * X_BYTES);
      if (v > best || isnan(v)) {
        best = v;
        best_index = h * W + w;
      }
    }
  }
  X_store(uint64_t(p.v[1]) + uint64_t(n * p.v[13] + c * p.v[14] + oh * p.v[15] + ow * p.v[16]) * X_BYTES, best);
  RefI64(uint64_t(p.v[2]) + uint64_t(n * p.v[17] + c * p.v[18] + oh * p.v[19] + ow * p.v[20]) * 8u).v = best_index;
}
