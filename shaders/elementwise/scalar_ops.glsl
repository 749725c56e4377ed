// The op of a scalar variant (OP_<name>): one tensor operand, parameters in
// X_SCALAR(k). Clamps order as std::min(std::max(x, lo), hi), so a NaN x stays.
#include "elementwise/pointwise_math.glsl"

#if defined(OP_pow) && defined(X_FLOAT)
// As ATen's pow with a scalar exponent: square roots are special-cased.
X_T op(X_T x) {
  X_T y = X_SCALAR(0);
  if (y == X_T(0.5)) return sqrt(x);
  if (y == X_T(-0.5)) return X_T(1) / sqrt(x);
  return pow_x(x, y);
}
#elif defined(OP_pow)
X_T op(X_T x) { return powi_x(x, X_SCALAR(0)); }
#elif defined(OP_bitwise_not) && defined(X_DT_B8)
X_T op(X_T x) { return !x; }
#elif defined(OP_bitwise_not)
X_T op(X_T x) { return ~x; }
#elif defined(X_DT_B8)  // bool clamps: false < true
#if defined(OP_clamp)
X_T op(X_T x) { return (x || X_SCALAR(0)) && X_SCALAR(1); }
#elif defined(OP_clamp_min)
X_T op(X_T x) { return x || X_SCALAR(0); }
#elif defined(OP_clamp_max)
X_T op(X_T x) { return x && X_SCALAR(0); }
#endif
#elif defined(OP_clamp)
X_T op(X_T x) {
  X_T lo = X_SCALAR(0), hi = X_SCALAR(1);
  X_T y = x < lo ? lo : x;
  return hi < y ? hi : y;
}
#elif defined(OP_clamp_min)
X_T op(X_T x) { return x < X_SCALAR(0) ? X_SCALAR(0) : x; }
#elif defined(OP_clamp_max)
X_T op(X_T x) { return X_SCALAR(0) < x ? X_SCALAR(0) : x; }
#else
#error "scalar: unknown op"
#endif
