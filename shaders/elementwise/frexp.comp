// frexp: x = mantissa * 2^exponent with |mantissa| in [0.5, 1), as C's
// frexp, from the bits: the exponent field rebased to -1 (float64
// subnormals scaled into the normal range first, float ones renormalized
// in integers); zeros, infinities and NaNs keep x with
// exponent 0, as glibc's. 16-bit inputs arrive as floats, whose mantissa
// then fits the 16-bit type exactly. Operands: mantissa (X), exponent
// (int32), x (X).
#include "common/strided.glsl"

void element(uint64_t i) {
  X_T x = X_load(operand_address(2, i));
  X_T mantissa = x;
  int exponent = 0;
#ifdef X_DT_F64
  if (x != X_T(0) && !isinf(x) && !isnan(x)) {
    int scaled = 0;
    uvec2 w = unpackDouble2x32(x);
    if (((w.y >> 20) & 0x7FFu) == 0u) {  // subnormal
      w = unpackDouble2x32(x * 18014398509481984.0LF);  // 2^54
      scaled = 54;
    }
    exponent = int((w.y >> 20) & 0x7FFu) - 1022 - scaled;
    w.y = (w.y & 0x800FFFFFu) | (1022u << 20);
    mantissa = packDouble2x32(w);
  }
#else
  // From the bits alone: a driver that flushes float32 subnormals (NVIDIA)
  // reads one as zero in any comparison or product.
  uint bits = floatBitsToUint(x);
  uint field = (bits >> 23) & 0xFFu, fraction = bits & 0x7FFFFFu;
  if ((bits & 0x7FFFFFFFu) != 0u && field != 0xFFu) {
    if (field == 0u) {  // subnormal: fraction * 2^-149
      int top = findMSB(fraction);
      exponent = top - 148;
      fraction = (fraction << uint(23 - top)) & 0x7FFFFFu;
    } else {
      exponent = int(field) - 126;
    }
    mantissa = uintBitsToFloat((bits & 0x80000000u) | (126u << 23) | fraction);
  }
#endif
  X_store(operand_address(0, i), mantissa);
  E_store(operand_address(1, i), exponent);
}

void main() { FOR_EACH_ELEMENT(element) }
