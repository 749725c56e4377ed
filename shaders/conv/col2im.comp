// The inverse of im2col.comp (col2im): each image element sums, in X's
// compute type, the columns' values taken from it,
//   image[n, c, i] = sum over taps t and positions l with
//                    l * stride + offset(t) * dilation - padding = i
//                    of columns[n, c * taps + t, l],
// one invocation per image element gathering (no atomics), so the sums are
// rounded once (integers wrap as the CPU's do). COL is the columns' dtype
// (float32 for 16-bit images whose products were kept in float32, else
// X's).
//
// Integer division is a software routine on NVIDIA (tens of instructions
// for 32 bits, more for 64): the first version found each tap's offset and
// position by dividing (seven divisions a tap) and took 535 us for
// ResNet-50's 3x3 32x64x56x56 float16 input gradient on an H100 (about 0.46
// TB/s; docs/measurements.md, 2026-12-07). The taps are now walked by
// kernel coordinate, a stride of 1 (most convolutions) divides nothing, and
// the element's index is split in 32 bits where it fits (common/base.glsl's
// quotient): 185 us, about 1.3 TB/s (same case, same day).
#include "conv/params.glsl"

// The positions reading this element, kernel coordinate by coordinate; l =
// DIV(from, stride) along each dimension.
#define GATHER(DIV) \
  for (int kz = 0; kz < kernel.x; ++kz) { \
    int fz = from.x - kz * dilation.x, lz = DIV(fz, stride.x); \
    bool in_z = fz >= 0 && lz * stride.x == fz && lz < out_size.x; \
    for (int ky = 0; ky < kernel.y; ++ky) { \
      int fy = from.y - ky * dilation.y, ly = DIV(fy, stride.y); \
      bool in_zy = in_z && fy >= 0 && ly * stride.y == fy && ly < out_size.y; \
      for (int kx = 0; kx < kernel.z; ++kx, ++t) { \
        int fx = from.z - kx * dilation.z, lx = DIV(fx, stride.z); \
        if (in_zy && fx >= 0 && lx * stride.z == fx && lx < out_size.z) { \
          int64_t position = (int64_t(lz) * out_size.y + ly) * out_size.z + lx; \
          sum += X_T(COL_load(columns + uint64_t(t * p.v[29] + position * p.v[30]) * COL_BYTES)); \
        } \
      } \
    } \
  }
#define UNIT(f, s) (f)
#define DIVIDE(f, s) ((f) / (s))

void main() {
  p = Params(args.params);
  ivec3 in_size = words3(5), kernel = words3(8), out_size = words3(11);
  ivec3 stride = words3(14), padding = words3(17), dilation = words3(20);
  int volume = in_size.x * in_size.y * in_size.z;
  int64_t i = int64_t(global_index());
  if (i >= p.v[2] * p.v[3] * volume) return;
  int64_t plane = quotient(i, volume), n = quotient(plane, p.v[3]);
  int at = int(i - plane * volume), c = int(plane - n * p.v[3]);
  ivec3 pos = ivec3(at / (in_size.y * in_size.z), (at / in_size.z) % in_size.y, at % in_size.z);

  int taps = int(p.v[4]);
  uint64_t columns = uint64_t(p.v[1]) + uint64_t(n * p.v[28] + int64_t(c) * taps * p.v[29]) * COL_BYTES;
  // Position l reads pos when l * stride = pos + padding - offset * dilation.
  ivec3 from = pos + padding;
  X_T sum = X_T(0);
  int t = 0;
  if (all(equal(stride, ivec3(1)))) {
    GATHER(UNIT)
  } else {
    GATHER(DIVIDE)
  }
  X_store(uint64_t(p.v[0]) + uint64_t(n * p.v[23] + c * p.v[24] + pos.x * p.v[25] + pos.y * p.v[26] +
                                      pos.z * p.v[27]) * X_BYTES,
          sum);
}
