// frexp: x = mantissa * 2^exponent with |mantissa| in [0.5, 1), as C's
// frexp, from the bits: the exponent field rebased to -1 (subnormals scaled
// into the normal range first); zeros, infinities and NaNs keep x with
// exponent 0, as glibc's. 16-bit inputs arrive as floats, whose mantissa
// then fits the 16-bit type exactly. Operands: mantissa (X), exponent
// (int32), x (X).
#include "common/strided.glsl"

void element(uint64_t i) {
  X_T x = X_load(operand_address(2, i));
  X_T mantissa = x;
  int exponent = 0;
  if (x != X_T(0) && !isinf(x) && !isnan(x)) {
#ifdef X_DT_F64
    int scaled = 0;
    uvec2 w = unpackDouble2x32(x);
    if (((w.y >> 20) & 0x7FFu) == 0u) {  // subnormal
      w = unpackDouble2x32(x * 18014398509481984.0LF);  // 2^54
      scaled = 54;
    }
    exponent = int((w.y >> 20) & 0x7FFu) - 1022 - scaled;
    w.y = (w.y & 0x800FFFFFu) | (1022u << 20);
    mantissa = packDouble2x32(w);
#else
    int scaled = 0;
    uint bits = floatBitsToUint(x);
    if (((bits >> 23) & 0xFFu) == 0u) {  // subnormal
      bits = floatBitsToUint(x * 16777216.0);  // 2^24
      scaled = 24;
    }
    exponent = int((bits >> 23) & 0xFFu) - 126 - scaled;
    mantissa = uintBitsToFloat((bits & 0x807FFFFFu) | (126u << 23));
#endif
  }
  X_store(operand_address(0, i), mantissa);
  E_store(operand_address(1, i), exponent);
}

void main() { FOR_EACH_ELEMENT(element) }
