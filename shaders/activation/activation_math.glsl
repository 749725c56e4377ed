// Helpers for the activations, written to stay finite and accurate where the
// plain formulas overflow or cancel (16-bit floats compute in float; float64
// variants get the double versions at the end, from math64.glsl).

// Constants in X's compute type: a float literal would round the double ones.
const X_T kSqrtHalf = X_T(0.707106781186547524400844362104849039LF);
const X_T kSqrt2OverPiX = X_T(0.797884560802865355879892119868763737LF);
const X_T kInvSqrt2Pi = X_T(0.398942280401432677939946059934381868LF);
const X_T kGeluKappa = X_T(0.044715LF);  // gelu's tanh approximation

// log(1 + x) without losing x when it is small next to 1 (Goldberg's trick:
// the rounding error of u = 1 + x cancels in x / (u - 1)).
float log1p_f(float x) {
  float u = 1.0 + x;
  if (u == 1.0 || isinf(u)) return u == 1.0 ? x : u;
  return log(u) * (x / (u - 1.0));
}

// exp(x) - 1 without cancellation near 0 (Kahan's trick, as log1p_f).
float expm1_f(float x) {
  float u = exp(x);
  if (u == 1.0) return x;
  float um1 = u - 1.0;
  if (um1 == -1.0 || isinf(u)) return um1;
  return um1 * (x / log(u));
}

// tanh(x) = expm1(2x) / (expm1(2x) + 2): accurate near 0, where the driver's
// tanh may lose all digits (lavapipe's gives 3e-8 for 1e-13), and clamped
// because some evaluate tanh through e^2x, which is inf / inf for large |x|
// (float tanh is +-1 from |x| > 9.01).
float tanh_f(float x) {
  if (isnan(x)) return x;  // clamp's result for NaN is undefined
  float e = expm1_f(2.0 * clamp(x, -10.0, 10.0));
  return e / (e + 2.0);
}

// log(1 + exp(x)), finite for large x and accurate for very negative x.
float log1p_exp_f(float x) { return max(x, 0.0) + log1p_f(exp(-abs(x))); }

#ifdef USES_F64
double log1p_f(double x) { return m_log1p(x); }
double expm1_f(double x) { return m_expm1(x); }
double tanh_f(double x) { return m_tanh(x); }
double log1p_exp_f(double x) { return max(x, 0.0LF) + m_log1p(m_exp(-abs(x))); }
#endif
