// Softmax family over the last dim of a contiguous tensor (rows of `length`
// consecutive elements), one workgroup per row, for bandwidth: a row that fits
// in registers (CHUNKS * VEC elements per invocation) is read from memory
// once and written once, where softmax.comp reads it three times. Longer rows
// stream twice, kUnroll steps in flight per invocation: an online max-and-sum
// pass, then the output pass. With
// args.vector (16-byte aligned rows, length a multiple of VEC) accesses are
// VEC-element vectors, `CHUNKS` independent ones in flight per invocation.
// Ops and inputs as in softmax.comp (a = x or dy, b = y).
#ifdef X_DT_F64
#define WG_T double
#define EXP m_exp  // double exp/log from common/math64.glsl (GLSL has none)
#define LOG m_log
#define CHUNKS (16 / VEC)
#else
#define EXP exp
#define LOG log
#define CHUNKS (32 / VEC)
#endif
#include "common/workgroup.glsl"
#include "common/math.glsl"

layout(push_constant) uniform Args {
  uint64_t a;
  uint64_t b;
  uint64_t target;
  uint64_t rows;
  uint row_length;  // < 2^31
  uint vector;  // 1: VEC-element vector accesses
} args;

const X_T kNegInf = X_T(-1.0 / 0.0);
// The register tile: invocation t holds element (t + c * n) * VEC + j in slot
// [c][j] (vector steps), or t + (c * VEC + j) * n (coalesced single elements).
X_T tile[CHUNKS][VEC];

bool vectorized() { return args.vector != 0; }
uint slot_element(uint c, uint j) {
  uint t = gl_LocalInvocationID.x;
  return vectorized() ? (t + c * kWorkgroupSize) * VEC + j : t + (c * VEC + j) * kWorkgroupSize;
}
bool fits() { return args.row_length <= kWorkgroupSize * CHUNKS * VEC; }

// The row at `base` into the tile, `pad` where the row has no element.
void load_tile(uint64_t base, X_T pad) {
  for (uint c = 0; c < CHUNKS; ++c) {
    if (vectorized()) {
      uint e = slot_element(c, 0);
      if (e < args.row_length) {
        X_loadv(base + uint64_t(e) * X_BYTES, tile[c]);
      } else {
        for (uint j = 0; j < VEC; ++j) tile[c][j] = pad;
      }
    } else {
      for (uint j = 0; j < VEC; ++j) {
        uint e = slot_element(c, j);
        tile[c][j] = e < args.row_length ? X_load(base + uint64_t(e) * X_BYTES) : pad;
      }
    }
  }
}

void store_tile(uint64_t base) {
  for (uint c = 0; c < CHUNKS; ++c) {
    if (vectorized()) {
      uint e = slot_element(c, 0);
      if (e < args.row_length) X_storev(base + uint64_t(e) * X_BYTES, tile[c]);
    } else {
      for (uint j = 0; j < VEC; ++j) {
        uint e = slot_element(c, j);
        if (e < args.row_length) X_store(base + uint64_t(e) * X_BYTES, tile[c][j]);
      }
    }
  }
}

// Streaming: step s of this invocation covers elements [first, first + count).
uint stream_steps() { return vectorized() ? args.row_length / VEC : args.row_length; }
uint64_t step_address(uint64_t base, uint s) { return base + uint64_t(vectorized() ? s * VEC : s) * X_BYTES; }
void load_step(uint64_t base, uint s, out X_T v[VEC]) {
  if (vectorized()) {
    X_loadv(step_address(base, s), v);
  } else {
    for (uint j = 0; j < VEC; ++j) v[j] = kNegInf;
    v[0] = X_load(step_address(base, s));
  }
}
uint step_width() { return vectorized() ? VEC : 1; }
// kUnroll steps a workgroup apart, loaded before any is used (several loads in
// flight); steps past the row read as -inf and are not stored.
const uint kUnroll = 4;
void load_steps(uint64_t base, uint k, uint steps, out X_T v[kUnroll][VEC]) {
  for (uint q = 0; q < kUnroll; ++q) {
    uint s = k + q * kWorkgroupSize;
    if (s < steps) {
      load_step(base, s, v[q]);
    } else {
      for (uint j = 0; j < VEC; ++j) v[q][j] = kNegInf;
    }
  }
}
void store_steps(uint64_t base, uint k, uint steps, X_T v[kUnroll][VEC]) {
  for (uint q = 0; q < kUnroll; ++q) {
    uint s = k + q * kWorkgroupSize;
    if (s >= steps) break;
    if (vectorized()) {
      X_storev(step_address(base, s), v[q]);
    } else {
      X_store(step_address(base, s), v[q][0]);
    }
  }
}

void main() {
  uint64_t row = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (row >= args.rows) return;
  uint tid = gl_LocalInvocationID.x;
  uint64_t offset = row * args.row_length * X_BYTES;
  uint64_t a = args.a + offset, b = args.b + offset, dst = args.target + offset;

#if defined(OP_softmax) || defined(OP_log_softmax)
  X_T m, s;
  if (fits()) {
    // Padding -inf adds exp(-inf - m) = 0 to the sum (or NaN exactly when the
    // row's own elements give NaN: a row of -inf, +inf or NaN).
    load_tile(a, kNegInf);
    m = kNegInf;
    for (uint c = 0; c < CHUNKS; ++c)
      for (uint j = 0; j < VEC; ++j) m = max_nan(m, tile[c][j]);
    m = workgroup_max(m);
    s = X_T(0);
    for (uint c = 0; c < CHUNKS; ++c) {
      for (uint j = 0; j < VEC; ++j) {
        X_T e = EXP(tile[c][j] - m);
#ifdef OP_softmax
        s += e;
        tile[c][j] = e;
#else
        s += e;
#endif
      }
    }
    s = workgroup_sum(s);
#ifdef OP_softmax
    X_T inv = X_T(1) / s;
    for (uint c = 0; c < CHUNKS; ++c)
      for (uint j = 0; j < VEC; ++j) tile[c][j] *= inv;
#else
    X_T shift = m + LOG(s);
    for (uint c = 0; c < CHUNKS; ++c)
      for (uint j = 0; j < VEC; ++j) tile[c][j] -= shift;
#endif
    store_tile(dst);
    return;
  }
  // Online max and sum: s is the sum of exp(x - m) over what this invocation
  // has seen; it stays 0 until m leaves -inf (exp(-inf - -inf) would be NaN).
  m = kNegInf;
  s = X_T(0);
  uint steps = stream_steps();
  for (uint k = tid; k < steps; k += kUnroll * kWorkgroupSize) {
    X_T v[kUnroll][VEC];
    load_steps(a, k, steps, v);
    for (uint q = 0; q < kUnroll; ++q) {
      X_T top = m;
      for (uint j = 0; j < VEC; ++j) top = max_nan(top, v[q][j]);
      if (top == kNegInf) continue;
      X_T part = X_T(0);
      for (uint j = 0; j < VEC; ++j) part += EXP(v[q][j] - top);
      s = (top == m ? s : s * EXP(m - top)) + part;
      m = top;
    }
  }
  X_T row_max = workgroup_max(m);
  s = workgroup_sum(m == kNegInf ? X_T(0) : s * EXP(m - row_max));
  m = row_max;
#ifdef OP_softmax
  X_T inv = X_T(1) / s;
#else
  X_T shift = m + LOG(s);
#endif
  for (uint k = tid; k < steps; k += kUnroll * kWorkgroupSize) {
    X_T v[kUnroll][VEC];
    load_steps(a, k, steps, v);
    for (uint q = 0; q < kUnroll; ++q) {
      for (uint j = 0; j < VEC; ++j) {
#ifdef OP_softmax
        v[q][j] = EXP(v[q][j] - m) * inv;
#else
        v[q][j] -= shift;
#endif
      }
    }
    store_steps(dst, k, steps, v);
  }

#elif defined(OP_softmax_backward) || defined(OP_log_softmax_backward)
  // softmax: dot = sum(dy * y), dx = y * (dy - dot); log_softmax: total = sum(dy),
  // dx = dy - exp(y) * total. The tile holds dy; y is read where it is needed.
  X_T acc = X_T(0);
  if (fits()) {
    load_tile(a, X_T(0));
#ifdef OP_softmax_backward
    X_T y[CHUNKS][VEC];
    for (uint c = 0; c < CHUNKS; ++c) {
      if (vectorized()) {
        uint e = slot_element(c, 0);
        if (e < args.row_length) {
          X_loadv(b + uint64_t(e) * X_BYTES, y[c]);
        } else {
          for (uint j = 0; j < VEC; ++j) y[c][j] = X_T(0);
        }
      } else {
        for (uint j = 0; j < VEC; ++j) {
          uint e = slot_element(c, j);
          y[c][j] = e < args.row_length ? X_load(b + uint64_t(e) * X_BYTES) : X_T(0);
        }
      }
    }
    for (uint c = 0; c < CHUNKS; ++c)
      for (uint j = 0; j < VEC; ++j) acc += tile[c][j] * y[c][j];
    acc = workgroup_sum(acc);
    for (uint c = 0; c < CHUNKS; ++c)
      for (uint j = 0; j < VEC; ++j) tile[c][j] = y[c][j] * (tile[c][j] - acc);
#else
    for (uint c = 0; c < CHUNKS; ++c)
      for (uint j = 0; j < VEC; ++j) acc += tile[c][j];
    acc = workgroup_sum(acc);
    X_T dy[CHUNKS][VEC] = tile;
    load_tile(b, X_T(0));
    for (uint c = 0; c < CHUNKS; ++c)
      for (uint j = 0; j < VEC; ++j) tile[c][j] = dy[c][j] - EXP(tile[c][j]) * acc;
#endif
    store_tile(dst);
    return;
  }
  uint steps = stream_steps();
  uint width = step_width();
  for (uint k = tid; k < steps; k += kWorkgroupSize) {
    X_T g[VEC];
    load_step(a, k, g);
#ifdef OP_softmax_backward
    X_T y[VEC];
    load_step(b, k, y);
    for (uint j = 0; j < width; ++j) acc += g[j] * y[j];
#else
    for (uint j = 0; j < width; ++j) acc += g[j];
#endif
  }
  acc = workgroup_sum(acc);
  for (uint k = tid; k < steps; k += kWorkgroupSize) {
    X_T g[VEC], y[VEC];
    load_step(a, k, g);
    load_step(b, k, y);
    for (uint j = 0; j < VEC; ++j) {
#ifdef OP_softmax_backward
      g[j] = y[j] * (g[j] - acc);
#else
      g[j] = g[j] - EXP(y[j]) * acc;
#endif
    }
    if (vectorized()) {
      X_storev(step_address(dst, k), g);
    } else {
      X_store(step_address(dst, k), g[0]);
    }
  }
#else
#error "softmax last_dim: unknown op"
#endif
}
