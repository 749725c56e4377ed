// The op of a unary variant (OP_<name>), on X's compute type.
#if defined(OP_neg)
X_T op(X_T x) { return -x; }
#elif defined(OP_abs)
X_T op(X_T x) { return abs(x); }
#elif defined(OP_reciprocal)
X_T op(X_T x) { return X_T(1) / x; }
#elif defined(OP_sqrt)
X_T op(X_T x) { return sqrt(x); }
#elif defined(OP_rsqrt)
X_T op(X_T x) { return X_T(1) / sqrt(x); }
#elif defined(OP_exp)
X_T op(X_T x) { return exp(x); }
#elif defined(OP_log)
X_T op(X_T x) { return log(x); }
#elif defined(OP_sin)
X_T op(X_T x) { return sin(x); }
#elif defined(OP_cos)
X_T op(X_T x) { return cos(x); }
#elif defined(OP_tanh)
X_T op(X_T x) { return tanh(x); }
#elif defined(OP_sigmoid)
X_T op(X_T x) { return sigmoid_f(x); }
#elif defined(OP_erf)
X_T op(X_T x) { return erf_f(x); }
#else
#error "unary: unknown op"
#endif
