// The op of a loss/pointwise variant (OP_<name>), with the formulas of
// ATen's CPU kernels; parameters arrive as X_SCALAR(k), already rounded to
// the tensor's dtype as the CPU rounds them (scalar_t(beta), norm.to<scalar_t>()).

// std::max(a, b): a unless a < b, so a NaN in a stays (GLSL's max may drop it).
X_T max_of(X_T a, X_T b) { return a < b ? b : a; }
// v rounded to X: where ATen's kernels (CPU and CUDA alike) round an
// intermediate to a 16-bit dtype, so do these.
X_T to_x(X_T v) {
#if defined(X_DT_BF16)
  return uintBitsToFloat(f32_to_bf16_bits(v) << 16);
#elif defined(X_DT_F16)
  return unpackHalf2x16(f32_to_f16_bits(v)).x;
#else
  return v;
#endif
}

#if defined(OP_mse)  // (input, target)
#define INPUTS 2
X_T op(X_T x, X_T y) {
  X_T d = to_x(x - y);
  return d * d;
}
#elif defined(OP_smooth_l1)  // (input, target); (beta)
#define INPUTS 2
X_T op(X_T x, X_T y) {
  X_T z = abs(x - y), beta = X_SCALAR(0);
  return z < beta ? X_T(0.5) * z * z / beta : z - X_T(0.5) * beta;
}
#elif defined(OP_huber)  // (input, target); (delta)
#define INPUTS 2
X_T op(X_T x, X_T y) {
  X_T z = abs(x - y), delta = X_SCALAR(0);
  return z < delta ? X_T(0.5) * z * z : delta * (z - X_T(0.5) * delta);
}
#elif defined(OP_binary_cross_entropy)  // (input, target): -(t log(x) + (1 - t) log(1 - x)), logs clamped at -100
#define INPUTS 2
X_T op(X_T x, X_T t) {
  return (t - X_T(1)) * max_of(m_log1p(-x), X_T(-100)) - t * max_of(m_log(x), X_T(-100));
}
#elif defined(OP_mse_backward)  // (input, target, grad); (norm)
#define INPUTS 3
X_T op(X_T x, X_T y, X_T g) { return X_SCALAR(0) * (x - y) * g; }
#elif defined(OP_smooth_l1_backward)  // (input, target, grad); (norm, beta)
#define INPUTS 3
X_T op(X_T x, X_T y, X_T g) {
  X_T d = x - y, norm = X_SCALAR(0), beta = X_SCALAR(1);
  if (d <= -beta) return -norm * g;
  if (d >= beta) return norm * g;
  return norm * d * g / beta;
}
#elif defined(OP_huber_backward)  // (input, target, grad); (norm, delta)
#define INPUTS 3
X_T op(X_T x, X_T y, X_T g) {
  X_T d = x - y, norm = X_SCALAR(0), delta = X_SCALAR(1);
  if (d <= -delta) return -norm * g * delta;
  if (d >= delta) return norm * g * delta;
  return norm * d * g;
}
#elif defined(OP_binary_cross_entropy_backward)  // (grad, input, target); (eps)
#define INPUTS 3
X_T op(X_T g, X_T x, X_T t) { return g * (x - t) / max_of((X_T(1) - x) * x, X_SCALAR(0)); }
#else
#error "loss pointwise: unknown op"
#endif
