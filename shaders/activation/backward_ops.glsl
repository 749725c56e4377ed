// The op of a two-input activation variant (OP_<name>): out = op(a, b), with
// a and b the iterator's inputs in the order ATen's meta function adds them
// (named per op). Formulas follow ATen's scalar CPU kernels (and CUDA's), NaN
// included: for a NaN input the CPU's vectorized paths of elu, hardtanh and
// hardswish backward answer otherwise, so the CPU's result depends on size.
#if defined(OP_threshold)  // (self, other) -> self <= threshold ? value : other;
// threshold passes other = self, threshold_backward other = grad and value 0.
X_T op(X_T x, X_T other) { return x <= X_SCALAR(0) ? X_SCALAR(1) : other; }
#elif defined(OP_sigmoid_backward)  // (grad, output)
X_T op(X_T grad, X_T y) { return grad * (X_T(1) - y) * y; }
#elif defined(OP_tanh_backward)  // (grad, output)
X_T op(X_T grad, X_T y) { return grad * (X_T(1) - y * y); }
#elif defined(OP_silu_backward)  // (grad, self)
X_T op(X_T grad, X_T x) {
  X_T s = X_T(1) / (X_T(1) + m_exp(-x));
  return grad * s * (X_T(1) + x * (X_T(1) - s));
}
#elif defined(OP_gelu_backward)  // (grad, self)
X_T op(X_T grad, X_T x) {
  X_T cdf = X_T(0.5) * (X_T(1) + m_erf(x * kSqrtHalf));
  X_T pdf = kInvSqrt2Pi * m_exp(X_T(-0.5) * x * x);
  return grad * (cdf + x * pdf);
}
#elif defined(OP_gelu_tanh_backward)  // (grad, self)
X_T op(X_T grad, X_T x) {
  X_T t = tanh_f(kSqrt2OverPiX * (x + kGeluKappa * x * x * x));
  X_T dinner = kSqrt2OverPiX * (X_T(1) + X_T(3) * kGeluKappa * x * x);
  return grad * (X_T(0.5) * (X_T(1) + t) + X_T(0.5) * x * (X_T(1) - t * t) * dinner);
}
#elif defined(OP_leaky_relu_backward)  // (self or result, grad); (negative_slope)
X_T op(X_T x, X_T grad) { return x > X_T(0) ? grad : grad * X_SCALAR(0); }
#elif defined(OP_elu_backward)  // (grad, self); (alpha, scale, input_scale)
X_T op(X_T grad, X_T x) {
  return x <= X_T(0) ? grad * X_SCALAR(2) * (X_SCALAR(0) * X_SCALAR(1)) * m_exp(x * X_SCALAR(2))
                     : grad * X_SCALAR(1);
}
#elif defined(OP_elu_backward_result)  // (grad, result); as elu_backward, from elu's output
X_T op(X_T grad, X_T y) {
  return y <= X_T(0) ? grad * X_SCALAR(2) * (y + X_SCALAR(0) * X_SCALAR(1)) : grad * X_SCALAR(1);
}
#elif defined(OP_softplus_backward)  // (grad, self); (beta, threshold)
X_T op(X_T grad, X_T x) {
  X_T bx = x * X_SCALAR(0);
  X_T z = m_exp(bx);
  return bx > X_SCALAR(1) ? grad : grad * z / (z + X_T(1));
}
#elif defined(OP_mish_backward)  // (grad, self)
X_T op(X_T grad, X_T x) {
  X_T s = X_T(1) / (X_T(1) + m_exp(-x));
  X_T t = tanh_f(log1p_exp_f(x));
  return grad * (t + x * s * (X_T(1) - t * t));
}
#elif defined(OP_hardtanh_backward)  // (grad, self); (min, max)
X_T op(X_T grad, X_T x) { return x <= X_SCALAR(0) || x >= X_SCALAR(1) ? X_T(0) : grad; }
#elif defined(OP_shrink_backward)  // (grad, self); (lambd): hardshrink's and softshrink's
X_T op(X_T grad, X_T x) { return x >= -X_SCALAR(0) && x <= X_SCALAR(0) ? X_T(0) : grad; }
#elif defined(OP_hardsigmoid_backward)  // (grad, self)
// ATen's 1/6 is a float constant, in double too; from its bits, since glslang
// folds 1.0 / 6.0 in double and never rounds it to float.
X_T op(X_T grad, X_T x) { return x > X_T(-3) && x < X_T(3) ? grad * X_T(uintBitsToFloat(0x3E2AAAABu)) : X_T(0); }
#elif defined(OP_hardswish_backward)  // (grad, self)
X_T op(X_T grad, X_T x) {
  if (x <= X_T(-3)) return X_T(0);
  return x < X_T(3) ? grad * (x / X_T(3) + X_T(0.5)) : grad;
}
#elif defined(OP_logit_backward)  // (grad, self); (lo, hi) = (eps, 1 - eps), lo < 0 without eps
X_T op(X_T grad, X_T x) {
  X_T lo = X_SCALAR(0);
  if (lo < X_T(0)) {
    if (x < X_T(0) || x > X_T(1)) return X_T(uintBitsToFloat(0x7FC00000u));
  } else if (x < lo || x > X_SCALAR(1)) {
    return X_T(0);
  }
  return grad / (x * (X_T(1) - x));
}
#elif defined(OP_log_sigmoid_backward)  // (grad, self): grad * sigmoid(-x), from z = exp(-|x|)
X_T op(X_T grad, X_T x) {
  X_T z = m_exp(-abs(x));
  X_T s = z / (X_T(1) + z);
  return grad * (x < X_T(0) ? X_T(1) - s : s);
}
#else
#error "activation_backward: unknown op"
#endif
