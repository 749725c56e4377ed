// Multi-tensor apply: one dispatch over many tensors (csrc/aten/ops/foreach/
// multi_tensor.cpp). The host writes a table into the parameter block, one
// entry of args.entry_words 64-bit words per tensor:
//   [0] numel  [1] first workgroup  [2] a per-tensor word  [3 + k] address of operand k
// Workgroup g takes a chunk of kChunk elements of the entry whose range of
// workgroups holds g (a binary search over the first-workgroup column).
layout(push_constant) uniform Args {
  uint64_t table;
  uint64_t scalar[6];  // op parameters as raw bits of the compute type
  uint ntensors;
  uint groups;         // workgroups with work; the grid may have more
  uint entry_words;
  uint flags;          // bit k: operand k reads its element 0 only (a 0-dim tensor);
                       // bit 16 + k: operand k is the value of scalar slot 3;
                       // bits 24..27: 1 + the scalar slot replaced by the per-tensor word;
                       // bit 28: VEC-element steps (FOR_EACH_CHUNK_ELEMENT_VECTORIZED)
} args;

// restrict: no tensor store writes the table, so its words may stay in registers.
layout(buffer_reference, std430, buffer_reference_align = 8) restrict readonly buffer Table { uint64_t v[]; };

const uint kPerInvocation = 4;
const uint kVectorSteps = 1u << 28;
#define kChunk (gl_WorkGroupSize.x * kPerInvocation)

uint mt_entry;  // this workgroup's tensor

uint64_t mt_word(uint w) { return Table(args.table).v[mt_entry * args.entry_words + w]; }
uint64_t mt_numel() { return mt_word(0); }
uint64_t mt_per_tensor() { return mt_word(2); }
uint64_t mt_ptr(int op) { return mt_word(3 + uint(op)); }

// Address of element i of operand `op` (of `bytes` bytes per element).
uint64_t mt_address(int op, uint64_t i, uint bytes) {
  uint64_t base = mt_ptr(op);
  return ((args.flags >> op) & 1u) != 0 ? base : base + i * bytes;
}

bool mt_is_scalar(int op) { return ((args.flags >> (16 + op)) & 1u) != 0; }

// Scalar parameter k as raw bits, per tensor where the host says so.
uint64_t scalar_bits(int k) { return ((args.flags >> 24) & 15u) == uint(k + 1) ? mt_per_tensor() : args.scalar[k]; }
float scalar_float(int k) { return uintBitsToFloat(uint(scalar_bits(k))); }
int scalar_int(int k) { return int(scalar_bits(k)); }
int64_t scalar_int64_t(int k) { return int64_t(scalar_bits(k)); }
bool scalar_bool(int k) { return scalar_bits(k) != 0; }
#ifdef USES_F64
double scalar_double(int k) { return uint64BitsToDouble(scalar_bits(k)); }
#endif

uint64_t mt_group() { return uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

// Finds this workgroup's entry; false for the grid's spare workgroups.
bool mt_locate() {
  uint64_t group = mt_group();
  if (group >= args.groups) return false;
  uint lo = 0, hi = args.ntensors - 1;
  while (lo < hi) {
    uint mid = (lo + hi + 1) / 2;
    if (Table(args.table).v[mid * args.entry_words + 1] <= group) lo = mid; else hi = mid - 1;
  }
  mt_entry = lo;
  return true;
}

// Calls element(i) for each element of this workgroup's chunk.
#define FOR_EACH_CHUNK_ELEMENT(element)                                                         \
  if (!mt_locate()) return;                                                                     \
  uint64_t mt_first = (mt_group() - mt_word(1)) * kChunk + gl_LocalInvocationID.x;              \
  uint64_t mt_n = mt_numel();                                                                   \
  for (uint k = 0; k < kPerInvocation; ++k) {                                                   \
    uint64_t i = mt_first + uint64_t(k) * gl_WorkGroupSize.x;                                   \
    if (i >= mt_n) break;                                                                       \
    element(i);                                                                                 \
  }

// The same with VEC-element steps where the host chose them (a kernel with
// elementv, every tensor 16-byte aligned; chunks then hold kChunk * VEC
// elements): each invocation takes kPerInvocation steps of VEC consecutive
// elements, a workgroup's width apart, as 16-byte accesses (2-byte elements
// one at a time reach half the bandwidth); a ragged end goes element by
// element.
#define FOR_EACH_CHUNK_ELEMENT_VECTORIZED(element, elementv)                                     \
  if ((args.flags & kVectorSteps) == 0u) {                                                       \
    FOR_EACH_CHUNK_ELEMENT(element)                                                              \
  } else {                                                                                       \
    if (!mt_locate()) return;                                                                    \
    uint64_t mt_first = (mt_group() - mt_word(1)) * kChunk + gl_LocalInvocationID.x;            \
    uint64_t mt_n = mt_numel();                                                                  \
    for (uint k = 0; k < kPerInvocation; ++k) {                                                  \
      uint64_t i = (mt_first + uint64_t(k) * gl_WorkGroupSize.x) * VEC;                          \
      if (i + VEC <= mt_n) {                                                                     \
        elementv(i);                                                                             \
      } else {                                                                                   \
        for (uint64_t j = i; j < mt_n; ++j) element(j);                                          \
      }                                                                                          \
    }                                                                                            \
  }
