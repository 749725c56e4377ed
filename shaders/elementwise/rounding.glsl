// Rounding to an integral value on X's compute type, keeping the sign of a
// zero result as IEEE and the CPU do (trunc(-0.3) and roundEven(-0.3) are
// -0.0): lavapipe's float64 trunc and roundEven return +0.0 there (Mesa
// 22.3.6-1+deb12u2, LLVM 15; seen 2026-12-04, not in earlier sessions' CI
// runs). Floating types only.
#if defined(X_DT_F16) || defined(X_DT_BF16) || defined(X_DT_F32) || defined(X_DT_F64)
X_T zero_signed_as(X_T x) {
#if defined(X_DT_F64)
  return packDouble2x32(uvec2(0u, unpackDouble2x32(x).y & 0x80000000u));
#else
  return uintBitsToFloat(floatBitsToUint(x) & 0x80000000u);
#endif
}

X_T trunc_x(X_T x) {
  X_T r = trunc(x);
  return r == X_T(0) ? zero_signed_as(x) : r;
}

#if defined(X_DT_F64)
// lavapipe's float64 roundEven also truncates (1.5 and 3.5 gave 1 and 3).
// Adding and subtracting 2^52 rounds |x| < 2^52 to an integer in the FPU's
// round-to-nearest-even mode (Vulkan rounds float64 adds correctly);
// `precise` keeps the compiler from folding the pair away. Larger values,
// infinities and NaN are integral or NaN already.
X_T round_even_x(X_T x) {
  const double two52 = 4503599627370496.0LF;
  if (!(abs(x) < two52)) return x;
  precise double r = (abs(x) + two52) - two52;
  uvec2 bits = unpackDouble2x32(r);
  return packDouble2x32(uvec2(bits.x, bits.y | (unpackDouble2x32(x).y & 0x80000000u)));
}
#else
X_T round_even_x(X_T x) {
  X_T r = roundEven(x);
  return r == X_T(0) ? zero_signed_as(x) : r;
}
#endif
#endif
