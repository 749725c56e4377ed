// The op of an activation variant (OP_<name>), on X's compute type; parameters
// arrive as X_SCALAR(k).
#if defined(OP_relu)
X_T op(X_T x) { return x > X_T(0) ? x : X_T(0); }
#elif defined(OP_gelu)
X_T op(X_T x) { return gelu_f(x); }
#elif defined(OP_gelu_tanh)
X_T op(X_T x) { return gelu_tanh_f(x); }
#elif defined(OP_silu)
X_T op(X_T x) { return x * sigmoid_f(x); }
#else
#error "activation: unknown op"
#endif
