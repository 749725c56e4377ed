// The predicate of a predicate variant (OP_<name>) on X's compute type.
// Integers and bools are never NaN or infinite; their sign bit is x < 0.
#if defined(X_DT_F16) || defined(X_DT_BF16) || defined(X_DT_F32) || defined(X_DT_F64)
#define X_FLOAT 1
#endif

#if defined(OP_signbit)
#if defined(X_DT_F64)
bool op(X_T x) { return (unpackDouble2x32(x).y >> 31) != 0u; }
#elif defined(X_FLOAT)
bool op(X_T x) { return (floatBitsToUint(x) >> 31) != 0u; }
#elif defined(X_DT_B8)
bool op(X_T x) { return false; }
#else
bool op(X_T x) { return x < X_T(0); }
#endif
#elif !defined(X_FLOAT)
bool op(X_T x) { return false; }
#elif defined(OP_isnan)
bool op(X_T x) { return isnan(x); }
#elif defined(OP_isinf)
bool op(X_T x) { return isinf(x); }
#elif defined(OP_isposinf)
bool op(X_T x) { return isinf(x) && x > X_T(0); }
#elif defined(OP_isneginf)
bool op(X_T x) { return isinf(x) && x < X_T(0); }
#else
#error "predicate: unknown op"
#endif
