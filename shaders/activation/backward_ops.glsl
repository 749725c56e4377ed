// The op of an activation backward variant (OP_<name>): grad_input from the
// output gradient and the forward input (or output, where named).
#if defined(OP_threshold_backward)  // (grad, self): grad where self > threshold
X_T op(X_T grad, X_T x) { return x <= X_SCALAR(0) ? X_T(0) : grad; }
#elif defined(OP_sigmoid_backward)  // (grad, output)
X_T op(X_T grad, X_T y) { return grad * (X_T(1) - y) * y; }
#elif defined(OP_tanh_backward)  // (grad, output)
X_T op(X_T grad, X_T y) { return grad * (X_T(1) - y * y); }
#elif defined(OP_silu_backward)  // (grad, self)
X_T op(X_T grad, X_T x) {
  X_T s = sigmoid_f(x);
  return grad * s * (X_T(1) + x * (X_T(1) - s));
}
#elif defined(OP_gelu_backward)  // (grad, self), exact gelu
X_T op(X_T grad, X_T x) {
  X_T cdf = 0.5 * (1.0 + erf_f(x * kSqrt1_2));
  X_T pdf = exp(-0.5 * x * x) * 0.39894228040143268;
  return grad * (cdf + x * pdf);
}
#elif defined(OP_gelu_tanh_backward)  // (grad, self), tanh approximation
X_T op(X_T grad, X_T x) {
  X_T x3 = x * x * x;
  X_T t = tanh(kSqrt2OverPi * (x + 0.044715 * x3));
  X_T dinner = kSqrt2OverPi * (1.0 + 3.0 * 0.044715 * x * x);
  return grad * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * dinner);
}
#else
#error "activation_backward: unknown op"
#endif
