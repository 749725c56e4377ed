// Elementwise launch arguments, filled by the host from an at::TensorIterator:
// operand 0 is the output. The iteration shape and per-operand byte strides
// (dimension 0 fastest, as TensorIterator orders them) live in a small
// metadata block whose address is `meta`, so any rank fits.
layout(push_constant) uniform Args {
  uint64_t meta;
  uint64_t numel;
  uint64_t ptr[4];
  uint64_t scalar[2];
  uint ndim;
} args;

layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Meta { int64_t v[]; };

// Byte address of operand `op` for the element at linear position `index`.
uint64_t operand_address(int op, uint64_t index) {
  Meta meta = Meta(args.meta);
  int ndim = int(args.ndim);
  int64_t rest = int64_t(index);
  int64_t offset = 0;
  for (int d = 0; d < ndim; ++d) {
    int64_t size = meta.v[d];
    int64_t q = rest / size;
    offset += (rest - q * size) * meta.v[ndim * (1 + op) + d];
    rest = q;
  }
  return args.ptr[op] + uint64_t(offset);
}
