// The comparison of a compare variant (OP_<name>), on X's compute type.
#ifdef X_DT_B8
#define ORD(x) int(x)  // false < true, as in C++
#else
#define ORD(x) (x)
#endif
#if defined(OP_eq)
bool op(X_T a, X_T b) { return a == b; }
#elif defined(OP_ne)
bool op(X_T a, X_T b) { return a != b; }
#elif defined(OP_lt)
bool op(X_T a, X_T b) { return ORD(a) < ORD(b); }
#elif defined(OP_le)
bool op(X_T a, X_T b) { return ORD(a) <= ORD(b); }
#elif defined(OP_gt)
bool op(X_T a, X_T b) { return ORD(a) > ORD(b); }
#elif defined(OP_ge)
bool op(X_T a, X_T b) { return ORD(a) >= ORD(b); }
#elif defined(OP_logical_and)  // any nonzero value (NaN too) is true
bool op(X_T a, X_T b) { return to_bool(a) && to_bool(b); }
#elif defined(OP_logical_or)
bool op(X_T a, X_T b) { return to_bool(a) || to_bool(b); }
#elif defined(OP_logical_xor)
bool op(X_T a, X_T b) { return to_bool(a) != to_bool(b); }
#else
#error "compare: unknown op"
#endif
