// The columns of a convolution's zero-padded input (conv/columns.h):
//   columns[n, c * taps + t, l] = image[n, c, l * stride + offset(t) * dilation - padding]
// (0 outside the image), moved as raw bits of WIDTH bytes. Each invocation
// writes VEC consecutive positions of one row, as 16-byte stores where the
// host allows (flag 1: rows a multiple of VEC long, VEC-aligned); the
// positions' coordinates and input addresses are found once and stepped,
// and the invocation's row is found by 32-bit division where the values
// allow (common/base.glsl's quotient). With 64-bit
// divisions and each position's address computed anew, ResNet-50's 3x3
// 32x64x56x56 float16 columns took 253 us on an H100, about 0.5 TB/s
// (docs/measurements.md, 2026-12-07); the strided copy of the padded
// image's windows it replaced wrote them at about 200 GB/s. As now, 149 us
// (about 0.86 TB/s).
#extension GL_EXT_control_flow_attributes : require

#include "common/bits.glsl"
#include "conv/params.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) buffer RefU4 { uvec4 v; };

const int WORDS = VEC * WIDTH / 4;  // 32-bit words a chunk of VEC elements fills

void main() {
  p = Params(args.params);
  int taps = int(p.v[4]);
  ivec3 in_size = words3(5), kernel = words3(8), out_size = words3(11);
  ivec3 stride = words3(14), padding = words3(17), dilation = words3(20);
  int positions = out_size.x * out_size.y * out_size.z;
  int64_t chunks = (positions + VEC - 1) / VEC, rows = p.v[3] * taps;
  int64_t i = int64_t(global_index());
  if (i >= p.v[2] * rows * chunks) return;
  int64_t row_index = quotient(i, chunks), n = quotient(row_index, rows);
  int first = int(i - row_index * chunks) * VEC, row = int(row_index - n * rows), c = row / taps;
  ivec3 origin = tap_offset(row - c * taps, kernel) * dilation - padding;
  uint64_t image = uint64_t(p.v[0]) + uint64_t(n * p.v[23] + c * p.v[24]) * WIDTH;
  ivec3 o = ivec3(first / (out_size.y * out_size.z), (first / out_size.z) % out_size.y, first % out_size.z);

  // Along a row of positions the input steps by stride.z: the address is
  // computed (three 64-bit products) only at the chunk's start and where
  // the positions wrap to the next row.
  ivec3 at = o * stride + origin;
  bool row_inside = at.x >= 0 && at.y >= 0 && at.x < in_size.x && at.y < in_size.y;
  uint64_t address = image + uint64_t(at.x * p.v[25] + at.y * p.v[26] + at.z * p.v[27]) * WIDTH;
  uint64_t step = uint64_t(stride.z * p.v[27]) * WIDTH;
  uint64_t bits[VEC];
  [[unroll]] for (int e = 0; e < VEC; ++e) {
    bool inside = first + e < positions && row_inside && at.z >= 0 && at.z < in_size.z;
    bits[e] = inside ? load_bits(address) : 0ul;
    // The next position: x, then y, then z.
    at.z += stride.z;
    address += step;
    if (++o.z == out_size.z) {
      o.z = 0;
      if (++o.y == out_size.y) {
        o.y = 0;
        ++o.x;
      }
      at = o * stride + origin;
      row_inside = at.x >= 0 && at.y >= 0 && at.x < in_size.x && at.y < in_size.y;
      address = image + uint64_t(at.x * p.v[25] + at.y * p.v[26] + at.z * p.v[27]) * WIDTH;
    }
  }

  uint64_t columns = uint64_t(p.v[1]) + uint64_t(n * p.v[28] + row * p.v[29]) * WIDTH;
  if ((p.v[31] & 1) != 0) {
    uint words[WORDS];
    [[unroll]] for (int w = 0; w < WORDS; ++w) words[w] = 0u;
    [[unroll]] for (int e = 0; e < VEC; ++e) {
#if WIDTH == 8
      words[2 * e] = uint(bits[e]);
      words[2 * e + 1] = uint(bits[e] >> 32);
#else
      words[e * WIDTH / 4] |= uint(bits[e]) << (8 * ((e * WIDTH) % 4));
#endif
    }
    uint64_t chunk = columns + uint64_t(first) * WIDTH;
    [[unroll]] for (int k = 0; k < WORDS / 4; ++k)
      RefU4(chunk + 16 * k).v = uvec4(words[4 * k], words[4 * k + 1], words[4 * k + 2], words[4 * k + 3]);
    return;
  }
  [[unroll]] for (int e = 0; e < VEC; ++e)
    if (first + e < positions) store_bits(columns + uint64_t((first + e) * p.v[30]) * WIDTH, bits[e]);
}
