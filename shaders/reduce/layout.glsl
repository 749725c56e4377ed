// The layout words the reduction kernels share (reduce.comp names them): an
// index over a list of dims turns into a byte offset through their sizes and
// strides, dimension 0 fastest.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

// Byte offset of `index` over n dims: sizes at word `sizes`, strides at `strides`.
int64_t offset_of(Params p, int64_t index, int sizes, int strides, int n) {
  if (n == 1) return index * p.v[strides];  // the common, coalesced case: no division
  int64_t offset = 0;
  for (int d = 0; d < n; ++d) {
    int64_t size = p.v[sizes + d];
    int64_t q = index / size;
    offset += (index - q * size) * p.v[strides + d];
    index = q;
  }
  return offset;
}
