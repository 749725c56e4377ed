// The op of a binary variant (OP_<name>), on X's compute type. Scalar
// parameters (alpha, thresholds) arrive as X_SCALAR(k).
#if defined(OP_add)
X_T op(X_T a, X_T b) { return a + X_SCALAR(0) * b; }
#elif defined(OP_sub)
X_T op(X_T a, X_T b) { return a - X_SCALAR(0) * b; }
#elif defined(OP_mul)
X_T op(X_T a, X_T b) { return a * b; }
#elif defined(OP_div)
X_T op(X_T a, X_T b) { return a / b; }
#elif defined(OP_logical_or)  // bool add/mul: PyTorch's bool arithmetic
X_T op(X_T a, X_T b) { return a || (X_SCALAR(0) && b); }
#elif defined(OP_logical_and)
X_T op(X_T a, X_T b) { return a && b; }
#elif defined(OP_maximum)
X_T op(X_T a, X_T b) { return isnan(a) || isnan(b) ? a + b : max(a, b); }
#elif defined(OP_minimum)
X_T op(X_T a, X_T b) { return isnan(a) || isnan(b) ? a + b : min(a, b); }
#elif defined(OP_maximum_int)
X_T op(X_T a, X_T b) { return max(a, b); }
#elif defined(OP_minimum_int)
X_T op(X_T a, X_T b) { return min(a, b); }
#elif defined(OP_threshold_backward)  // (grad, self): grad where self > threshold
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
#error "binary: unknown op"
#endif
