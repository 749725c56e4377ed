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
#else
#error "binary: unknown op"
#endif
