// float32 x as bfloat16 hi + lo (hi = x rounded, lo = x - hi rounded), for
// float32 products under torch.set_float32_matmul_precision("high")
// (csrc/aten/ops/matmul/gemm.cpp, bf16_operands): one pass writing hi twice
// and lo once, into the thirds of an operand whose K is tripled. As one pass
// it replaces five (two roundings, a widening, a subtraction and the
// concatenation: 900 us for both 4096 x 4096 operands on the H200, 29% of
// the product's time). Operands: hi, hi, lo (bfloat16), x (float32).
#include "common/strided.glsl"

void element(uint64_t i) {
  float x = X_load(operand_address(3, i));
  float hi = uintBitsToFloat(f32_to_bf16_bits(x) << 16);
  OUT_store(operand_address(0, i), hi);
  OUT_store(operand_address(1, i), hi);
  OUT_store(operand_address(2, i), x - hi);
}

void main() { FOR_EACH_ELEMENT(element) }
