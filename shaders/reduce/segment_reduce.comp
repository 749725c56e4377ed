// torch.segment_reduce and its gradient: data [outer, D, inner] (contiguous)
// cut along D into segments by offsets [outer, S + 1] (int64; the host turns
// lengths into offsets), one invocation per output value (o, s, i), which
// walks its segment's D values at stride inner, so consecutive invocations
// read consecutive memory.
//   forward:  out[o, s, i] = the reduction of the segment's values, started
//             from `initial` (else the reduction's identity; a mean of
//             nothing without one is NaN), max/min propagating NaN, the mean
//             divided by the length unless NaN;
//   backward: grad_input over the segment: sum the gradient, mean divided by
//             the length, max/min to the values equal to the result (or
//             NaN), divided among them when several and positive, as the
//             CPU's kernel does; prod the gradient times the product of the
//             other values (output / value, or the product itself where the
//             value is 0 or NaN).
// Sums run in X_T (float for the 16-bit types), rounded once at the end.
layout(push_constant) uniform Args {
  uint64_t params;
} args;

// int64 words (csrc/aten/ops/reduce/segment_reduce.cpp): 0 data, 1 offsets,
// 2 out (forward: the result; backward: grad_input), 3 the result (backward),
// 4 its gradient (backward) addresses; 5 outer, 6 D, 7 S, 8 inner; 9 the
// reduction (ATen's ReductionType: 0 max, 1 mean, 2 min, 3 sum, 4 prod);
// 10 whether `initial` is given, 11 its value rounded to the data's dtype,
// as the bits of X_T (launch.h's scalar_bits).
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Params { int64_t v[]; };

const int kMax = 0, kMean = 1, kMin = 2, kSum = 3, kProd = 4;

Params p;
uint64_t data, values;  // the data's and out's address of value 0 of the segment
int64_t inner;

X_T value_at(int64_t j) { return X_load(data + uint64_t(j * inner) * X_BYTES); }

X_T initial_or(X_T otherwise) {
  if (p.v[10] == 0) return otherwise;
#ifdef X_DT_F64
  return uint64BitsToDouble(uint64_t(p.v[11]));
#else
  return uintBitsToFloat(uint(p.v[11]));
#endif
}

X_T forward(int reduction, int64_t length) {
  X_T inf = X_T(1.0 / 0.0);
  X_T acc = initial_or(reduction == kMax ? -inf : reduction == kMin ? inf : reduction == kProd ? X_T(1) : X_T(0));
  for (int64_t j = 0; j < length; ++j) {
    X_T v = value_at(j);
    if (reduction == kMax || reduction == kMin) {
      // The CPU's std::max/min keep a NaN result and take a NaN value.
      if (!isnan(acc) && (isnan(v) || (reduction == kMax ? v > acc : v < acc))) acc = v;
    } else if (reduction == kProd) {
      acc *= v;
    } else {
      acc += v;
    }
  }
  if (reduction == kMean) {
    if (length == 0 && p.v[10] == 0) return X_T(0.0 / 0.0);
    if (length > 0 && !isnan(acc)) acc /= X_T(length);
  }
  return acc;
}

void store(int64_t j, X_T v) { X_store(values + uint64_t(j * inner) * X_BYTES, v); }

void backward(int reduction, int64_t length, X_T result, X_T grad) {
  if (reduction == kSum || reduction == kMean) {
    X_T g = reduction == kMean ? grad / X_T(length) : grad;
    for (int64_t j = 0; j < length; ++j) store(j, g);
  } else if (reduction == kMax || reduction == kMin) {
    int64_t ties = 0;
    for (int64_t j = 0; j < length; ++j) {
      X_T v = value_at(j);
      if (isnan(v) || v == result) ++ties;
    }
    X_T share = ties > 1 && grad > X_T(0) ? grad / X_T(ties) : grad;
    for (int64_t j = 0; j < length; ++j) {
      X_T v = value_at(j);
      store(j, isnan(v) || v == result ? share : X_T(0));
    }
  } else {
    for (int64_t j = 0; j < length; ++j) {
      X_T v = value_at(j);
      if (!isnan(v) && v != X_T(0)) {
        store(j, grad * result / v);
        continue;
      }
      X_T others = initial_or(X_T(1));
      for (int64_t k = 0; k < length; ++k)
        if (k != j) others *= value_at(k);
      store(j, grad * others);
    }
  }
}

void main() {
  p = Params(args.params);
  int64_t outer = p.v[5], D = p.v[6], S = p.v[7];
  inner = p.v[8];
  int64_t e = int64_t(global_index());
  if (e >= outer * S * inner) return;
  int64_t i = e % inner, s = (e / inner) % S, o = e / (inner * S);
  uint64_t offsets = uint64_t(p.v[1]) + uint64_t(o * (S + 1) + s) * 8;
  int64_t start = RefI64(offsets).v, length = RefI64(offsets + 8).v - start;
  uint64_t first = uint64_t((o * D + start) * inner + i) * X_BYTES;  // the segment's value 0
  data = uint64_t(p.v[0]) + first;
  int reduction = int(p.v[9]);
#ifdef OP_forward
  X_store(uint64_t(p.v[2]) + uint64_t(e) * X_BYTES, forward(reduction, length));
#else
  values = uint64_t(p.v[2]) + first;
  X_T result = X_load(uint64_t(p.v[3]) + uint64_t(e) * X_BYTES);
  X_T grad = X_load(uint64_t(p.v[4]) + uint64_t(e) * X_BYTES);
  backward(reduction, length, result, grad);
#endif
}
