// The cubic convolution weights with A = -0.75 (the CPU's and CUDA's), in
// the includer's W_T: a tap at distance x from the source position weighs
// cubic_near(x) for |x| <= 1 and cubic_far(x) for 1 < |x| < 2.
W_T cubic_near(W_T x) { return ((1.25 * x - 2.25) * x) * x + 1.0; }
W_T cubic_far(W_T x) { return ((-0.75 * x + 3.75) * x - 6.0) * x + 3.0; }

// The four taps' weights for a source position t past the first inner tap
// (0 <= t < 1): taps at -1, 0, 1, 2.
void cubic_weights(W_T t, out W_T w[4]) {
  w[0] = cubic_far(t + W_T(1));
  w[1] = cubic_near(t);
  w[2] = cubic_near(W_T(1) - t);
  w[3] = cubic_far(W_T(2) - t);
}
