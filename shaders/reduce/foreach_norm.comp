// _foreach_norm in two multi-tensor passes (ord in scalar 0: 0 = 1-norm,
// 1 = 2-norm, 2 = inf-norm), accumulating in float (double for float64):
//   partial: each workgroup reduces its chunk of operand 0 to one value, stored
//            at partials[per-tensor word + the chunk's index] (operand 1);
//   finish:  one workgroup per tensor (operand 0: the 0-dim outputs) reduces
//            the tensor's partials (per-tensor word: first | count << 32).
#ifdef X_DT_F64
#define WG_T double
#endif
#include "common/multi_tensor.glsl"
#include "common/workgroup.glsl"
#define ACC_T WG_T
#ifdef X_DT_F64
#define PARTIAL RefF64
#define ACC_BYTES 8
#else
#define PARTIAL RefF32
#define ACC_BYTES 4
#endif

uint ord() { return uint(args.scalar[0]); }

ACC_T combine(ACC_T acc, ACC_T v) { return ord() == 2u ? max_nan(acc, v) : acc + v; }

ACC_T reduce(ACC_T acc) { return ord() == 2u ? workgroup_max(acc) : workgroup_sum(acc); }

void main() {
  if (!mt_locate()) return;  // uniform across the workgroup
  uint tid = gl_LocalInvocationID.x;
  ACC_T acc = ACC_T(0);
#ifdef OP_partial
  uint64_t chunk = mt_group() - mt_word(1);
  uint64_t n = mt_numel();
  for (uint k = 0; k < kPerInvocation; ++k) {
    uint64_t i = chunk * kChunk + uint64_t(k) * kWorkgroupSize + tid;
    if (i >= n) break;
    ACC_T v = abs(ACC_T(X_load(mt_address(0, i, X_BYTES))));
    acc = combine(acc, ord() == 1u ? v * v : v);
  }
  acc = reduce(acc);
  if (tid == 0) PARTIAL(mt_ptr(1) + (mt_per_tensor() + chunk) * uint64_t(ACC_BYTES)).v = acc;
#else
  uint64_t word = mt_per_tensor();
  uint64_t first = word & 0xFFFFFFFFul, count = word >> 32;
  for (uint64_t j = tid; j < count; j += kWorkgroupSize) {
    acc = combine(acc, PARTIAL(mt_ptr(1) + (first + j) * uint64_t(ACC_BYTES)).v);
  }
  acc = reduce(acc);
  if (tid == 0) X_store(mt_ptr(0), X_T(ord() == 1u ? sqrt(acc) : acc));
#endif
}
