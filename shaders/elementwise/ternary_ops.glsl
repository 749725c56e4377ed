// The op of a ternary variant (OP_<name>), on X's compute type; `value` of
// addcmul/addcdiv arrives as X_SCALAR(0).
#include "elementwise/pointwise_math.glsl"

#if defined(OP_clamp)  // tensor bounds; a NaN anywhere gives NaN, as ATen's clamp
X_T op(X_T x, X_T lo, X_T hi) {
#ifdef X_FLOAT
  if (isnan(lo) || isnan(hi)) return X_T(kNaN);
#endif
  X_T y = x < lo ? lo : x;
  return hi < y ? hi : y;
}
#elif defined(OP_lerp)  // tensor weight; as at::lerp, exact at both ends
X_T op(X_T a, X_T b, X_T w) {
  return abs(w) < X_T(0.5) ? a + w * (b - a) : b - (b - a) * (X_T(1) - w);
}
#elif defined(OP_addcmul)
X_T op(X_T x, X_T t1, X_T t2) { return x + X_SCALAR(0) * t1 * t2; }
#elif defined(OP_addcdiv)
X_T op(X_T x, X_T t1, X_T t2) { return x + X_SCALAR(0) * (t1 / t2); }
#else
#error "ternary: unknown op"
#endif
