// The op of an activation variant (OP_<name>): out = op(x) on X's compute
// type; parameters arrive as X_SCALAR(k). Formulas and NaN behaviour follow
// ATen's CPU kernels; comparisons are written so that NaN falls through to x.
#if defined(OP_relu)  // clamp_min(x, 0): NaN and -0.0 stay
X_T op(X_T x) { return x < X_T(0) ? X_T(0) : x; }
#elif defined(OP_leaky_relu)  // (negative_slope)
X_T op(X_T x) { return x > X_T(0) ? x : x * X_SCALAR(0); }
#elif defined(OP_elu)  // (alpha, scale, input_scale); expm1 as CUDA, not the CPU's exp - 1
X_T op(X_T x) {
  return x <= X_T(0) ? expm1_f(x * X_SCALAR(2)) * (X_SCALAR(0) * X_SCALAR(1)) : x * X_SCALAR(1);
}
#elif defined(OP_gelu)
X_T op(X_T x) { return x * X_T(0.5) * (X_T(1) + m_erf(x * kSqrtHalf)); }
#elif defined(OP_gelu_tanh)
X_T op(X_T x) { return X_T(0.5) * x * (X_T(1) + tanh_f(kSqrt2OverPiX * (x + kGeluKappa * x * x * x))); }
#elif defined(OP_silu)
X_T op(X_T x) { return x / (X_T(1) + m_exp(-x)); }
#elif defined(OP_mish)
X_T op(X_T x) { return x * tanh_f(log1p_exp_f(x)); }
#elif defined(OP_softplus)  // (beta, threshold): linear above the threshold
X_T op(X_T x) {
  X_T bx = x * X_SCALAR(0);
  return bx > X_SCALAR(1) ? x : log1p_f(m_exp(bx)) / X_SCALAR(0);
}
#elif defined(OP_hardtanh)  // (min, max): clamp, max wins when min > max
X_T op(X_T x) {
  X_T lo = x < X_SCALAR(0) ? X_SCALAR(0) : x;
  return lo > X_SCALAR(1) ? X_SCALAR(1) : lo;
}
#elif defined(OP_hardshrink)  // (lambd): 0 on [-lambd, lambd]
X_T op(X_T x) { return x >= -X_SCALAR(0) && x <= X_SCALAR(0) ? X_T(0) : x; }
#elif defined(OP_softshrink)  // (lambd): x -+ lambd outside [-lambd, lambd], else x * 0, as the CPU's scalar loop
X_T op(X_T x) {
  if (isnan(x)) return x;
  return x > X_SCALAR(0) ? x - X_SCALAR(0) : (x < -X_SCALAR(0) ? x + X_SCALAR(0) : x * X_T(0));
}
#elif defined(OP_hardsigmoid)  // min(max(x + 3, 0), 6) / 6
X_T op(X_T x) {
  X_T t = x + X_T(3);
  t = t < X_T(0) ? X_T(0) : t;
  return (t > X_T(6) ? X_T(6) : t) / X_T(6);
}
#elif defined(OP_hardswish)  // x * min(max(x + 3, 0), 6) / 6
X_T op(X_T x) {
  X_T t = x + X_T(3);
  t = t < X_T(0) ? X_T(0) : t;
  return x * (t > X_T(6) ? X_T(6) : t) / X_T(6);
}
#elif defined(OP_log_sigmoid)  // min(x, 0) - log1p(exp(-|x|)): no overflow either side
X_T op(X_T x) { return (x < X_T(0) ? x : X_T(0)) - m_log1p(m_exp(-abs(x))); }
#else
#error "activation: unknown op"
#endif
