// out = DST(in) for any two distinct dtypes, any strides.
#include "common/strided.glsl"

#if defined(DST_DT_B8)
#define CAST to_bool
#elif defined(DST_DT_I64)
#define CAST to_int64_t
#elif defined(DST_DT_F64)
#define CAST to_double
#elif defined(DST_DT_F16) || defined(DST_DT_BF16) || defined(DST_DT_F32)
#define CAST to_float
#else
#define CAST to_int
#endif

void main() {
  uint64_t i = global_index();
  if (i >= args.numel) return;
  DST_store(operand_address(0, i), CAST(SRC_load(operand_address(1, i))));
}
