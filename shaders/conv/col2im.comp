// The inverse of im2col.comp (col2im): each image element sums, in X's
// compute type, the columns' values taken from it,
//   image[n, c, i] = sum over taps t and positions l with
//                    l * stride + offset(t) * dilation - padding = i
//                    of columns[n, c * taps + t, l],
// one invocation per image element gathering (no atomics), so the sums are
// rounded once (integers wrap as the CPU's do). COL is the columns' dtype
// (float32 for 16-bit images whose products were kept in float32, else
// X's).
#include "conv/params.glsl"

void main() {
  p = Params(args.params);
  int taps = int(p.v[4]);
  ivec3 in_size = words3(5), kernel = words3(8), out_size = words3(11);
  ivec3 stride = words3(14), padding = words3(17), dilation = words3(20);
  int volume = in_size.x * in_size.y * in_size.z;
  uint64_t i = global_index();
  if (i >= uint64_t(p.v[2] * p.v[3] * volume)) return;
  int64_t plane = int64_t(i / uint64_t(volume));
  int at = int(int64_t(i) - plane * volume);
  ivec3 pos = ivec3(at / (in_size.y * in_size.z), (at / in_size.z) % in_size.y, at % in_size.z);
  int64_t n = plane / p.v[3];
  int c = int(plane - n * p.v[3]);

  uint64_t columns = uint64_t(p.v[1]) + uint64_t(n * p.v[28] + int64_t(c) * taps * p.v[29]) * COL_BYTES;
  X_T sum = X_T(0);
  for (int t = 0; t < taps; ++t) {
    // Position l reads pos when l * stride = pos + padding - offset * dilation.
    ivec3 from = pos + padding - tap_offset(t, kernel) * dilation;
    ivec3 l = from / stride;
    if (all(greaterThanEqual(from, ivec3(0))) && all(equal(l * stride, from)) && all(lessThan(l, out_size))) {
      int64_t position = (l.x * out_size.y + l.y) * out_size.z + l.z;
      sum += X_T(COL_load(columns + uint64_t(t * p.v[29] + position * p.v[30]) * COL_BYTES));
    }
  }
  X_store(uint64_t(p.v[0]) + uint64_t(n * p.v[23] + c * p.v[24] + pos.x * p.v[25] + pos.y * p.v[26] +
                                      pos.z * p.v[27]) * X_BYTES,
          sum);
}
