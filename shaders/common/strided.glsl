// Elementwise launch arguments, filled by the host from an at::TensorIterator
// (csrc/aten/launch.cpp): operand 0 is the output. The iteration shape
// (dimension 0 fastest, as TensorIterator orders them), a divider per size and
// the per-operand byte strides live in a metadata block at `meta`, so any
// rank fits.
layout(push_constant) uniform Args {
  uint64_t meta;
  uint64_t numel;
  uint64_t ptr[4];
  uint64_t scalar[4];  // op parameters as raw bits of the compute type
  uint ndim;
  uint flags;          // bits 4k..4k+3: log2 element size of operand k; bit 16: all
                       // contiguous; bit 18: indices and byte offsets fit in 31 bits;
                       // bit 20+k: ptr[k] is an offset into the metadata block;
                       // bits 24..27: log2 of the elements per vector step (0: no
                       // vector path; contiguous, every operand 16-byte aligned)
} args;

layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Meta { int64_t v[]; };

const uint kContiguous = 1u << 16;
const uint kIndex32 = 1u << 18;
// Elements per invocation: invocation t of a workgroup of n handles
// t, t + n, t + 2n, t + 3n of its block, so each step stays coalesced.
const uint kPerInvocation = 4;

// Byte address of operand `op` for the element at linear position `index`.
// The last coordinate is what is left of the index, so it needs no division
// (a 0-dim iteration has none).
// (Finding all operands' offsets in one pass and keeping them between calls
// was tried: NVIDIA then kept the cache in local memory and the contiguous
// kernels lost 5-10% of their bandwidth.)
uint64_t operand_address(int op, uint64_t index) {
  if ((args.flags & kContiguous) != 0) {
    return args.ptr[op] + (index << ((args.flags >> (4 * op)) & 15u));
  }
  Meta meta = Meta(args.meta);
  uint64_t base = ((args.flags >> (20 + op)) & 1u) != 0 ? args.meta + args.ptr[op] : args.ptr[op];
  int ndim = int(args.ndim);
  int last = ndim - 1;
  if ((args.flags & kIndex32) != 0) {
    // Division by invariant integers: q = (hi32(n * magic) + n) >> shift, with
    // the host's magic = 2^32 (2^shift - size) / size + 1 and shift =
    // ceil(log2 size), exact for n < 2^31 and several times cheaper than a
    // 32-bit division, which GPUs emulate.
    uint rest = uint(index);
    int offset = 0;
    for (int d = 0; d < last; ++d) {
      uint64_t divider = uint64_t(meta.v[ndim + d]);
      uint high, low;
      umulExtended(rest, uint(divider), high, low);
      uint q = (high + rest) >> uint(divider >> 32);
      offset += int(rest - q * uint(meta.v[d])) * int(meta.v[ndim * (2 + op) + d]);
      rest = q;
    }
    if (last >= 0) offset += int(rest) * int(meta.v[ndim * (2 + op) + last]);
    return base + uint64_t(int64_t(offset));
  }
  int64_t rest = int64_t(index);
  int64_t offset = 0;
  for (int d = 0; d < last; ++d) {
    int64_t q = rest / meta.v[d];
    offset += (rest - q * meta.v[d]) * meta.v[ndim * (2 + op) + d];
    rest = q;
  }
  if (last >= 0) offset += rest * meta.v[ndim * (2 + op) + last];
  return base + uint64_t(offset);
}

// Elements per vector step the host chose (see VEC in shaders/compile.py), 1
// when the operands allow no vector path.
uint vector_elements() { return 1u << ((args.flags >> 24) & 15u); }

// Calls element(i) for each element this invocation owns. The host launches
// fewer invocations when it allows vector steps, so a kernel without a vector
// path then takes that many times more elements each.
#define FOR_EACH_ELEMENT(element)                                                         \
  uint per_invocation = kPerInvocation * vector_elements();                               \
  uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;   \
  uint64_t first = group * gl_WorkGroupSize.x * per_invocation + gl_LocalInvocationID.x; \
  for (uint k = 0; k < per_invocation; ++k) {                                             \
    uint64_t i = first + uint64_t(k) * gl_WorkGroupSize.x;                                \
    if (i >= args.numel) break;                                                           \
    element(i);                                                                           \
  }

// The same with VEC-element vector steps (compile.py's X_loadv/X_storev) when
// the host chose them: each invocation takes kPerInvocation steps of VEC
// consecutive elements, a workgroup's width apart (coalesced, and several
// 16-byte accesses in flight per invocation), each with elementv; a ragged end
// goes element by element. A host choice other than this variant's VEC (an
// operand it does not load as a role) takes the element path.
#define FOR_EACH_ELEMENT_VECTORIZED(element, elementv)                                        \
  if (vector_elements() == VEC) {                                                             \
    uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;      \
    uint64_t first = group * gl_WorkGroupSize.x * kPerInvocation + gl_LocalInvocationID.x;    \
    for (uint k = 0; k < kPerInvocation; ++k) {                                                \
      uint64_t i = (first + uint64_t(k) * gl_WorkGroupSize.x) * VEC;                           \
      if (i + VEC <= args.numel) {                                                             \
        elementv(i);                                                                           \
      } else {                                                                                 \
        for (uint64_t j = i; j < args.numel; ++j) element(j);                                  \
      }                                                                                        \
    }                                                                                          \
  } else {                                                                                     \
    FOR_EACH_ELEMENT(element)                                                                  \
  }

// Scalar parameters in the compute types.
float scalar_float(int k) { return uintBitsToFloat(uint(args.scalar[k])); }
int scalar_int(int k) { return int(args.scalar[k]); }
int64_t scalar_int64_t(int k) { return int64_t(args.scalar[k]); }
bool scalar_bool(int k) { return args.scalar[k] != 0; }
#ifdef USES_F64
double scalar_double(int k) { return uint64BitsToDouble(args.scalar[k]); }
#endif
