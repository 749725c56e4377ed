// out = value, any strides. The host passes the value already converted to the
// output dtype's compute type, as raw bits in scalar[0].
#include "common/strided.glsl"

OUT_T fill_value() {
#if defined(OUT_DT_B8)
  return args.scalar[0] != 0;
#elif defined(OUT_DT_I64)
  return int64_t(args.scalar[0]);
#elif defined(OUT_DT_F64)
  return uint64BitsToDouble(args.scalar[0]);
#elif defined(OUT_DT_F16) || defined(OUT_DT_BF16) || defined(OUT_DT_F32)
  return uintBitsToFloat(uint(args.scalar[0]));
#else
  return int(args.scalar[0]);
#endif
}

void main() {
  uint64_t i = global_index();
  if (i >= args.numel) return;
  OUT_store(operand_address(0, i), fill_value());
}
