// reflection_pad{1,2,3}d, replication_pad{1,2,3}d and their backwards, one
// invocation per element written. Along each padded dimension of input
// size S, with p elements added before (negative: removed), output
// position x reads input position
//   reflect:   |x - p| - |x - (S + p - 1)| - x + p + S - 1
//   replicate: clamp(x - p, 0, S - 1)
// (the forward gathers). The backward gathers too: input position i is read
// by x = i + p, and where reflecting by p - i (i > 0) and 2 (S - 1) + p - i
// (i < S - 1), where replicating by every x up to p (i = 0) or from
// S - 1 + p (i = S - 1); each candidate inside the output is checked
// against the forward's map.
#include "common/volume.glsl"

// Words from 20 (csrc/aten/ops/pad/pad.cpp): 20-22 padding before, per
// dimension; 23 reflect (1) or replicate (0).

int64_t source(int d, int64_t x) {
  int64_t size = p.v[4 + d], before = p.v[20 + d];
  if (p.v[23] != 0) return abs(x - before) - abs(x - (size + before - 1)) - x + before + size - 1;
  return clamp(x - before, int64_t(0), size - 1);
}

#ifdef OP_backward
// The output positions of dimension d that read input position i: a run
// (first..last, replicate) or up to three positions (reflect).
int readers(int d, int64_t i, out int64_t x[3], out int64_t first, out int64_t last) {
  int64_t size = p.v[4 + d], outs = p.v[7 + d], before = p.v[20 + d];
  if (p.v[23] == 0) {
    first = max(i == 0 ? int64_t(0) : i + before, int64_t(0));
    last = min(i == size - 1 ? outs - 1 : i + before, outs - 1);
    return -1;
  }
  int n = 0;
  int64_t candidates[3] = {before - i, i + before, 2 * (size - 1) + before - i};
  for (int k = 0; k < 3; ++k) {
    bool repeat = (k == 0 && i == 0) || (k == 2 && i == size - 1);
    int64_t c = candidates[k];
    if (!repeat && c >= 0 && c < outs && source(d, c) == i) x[n++] = c;
  }
  return n;
}

// Output position j of readers() (a run's first + j).
int64_t reader(int n, int64_t x[3], int64_t first, int j) { return n < 0 ? first + j : x[j]; }
int count(int n, int64_t first, int64_t last) { return n < 0 ? int(max(last - first + 1, int64_t(0))) : n; }
#endif

void main() {
  int64_t n, c, z, y, x;
  if (!locate(n, c, z, y, x)) return;
#ifdef OP_forward
  X_store(at(1, n, c, z, y, x), X_load(at(0, n, c, source(0, z), source(1, y), source(2, x))));
#else
  int64_t xz[3], xy[3], xx[3], fz, lz, fy, ly, fx, lx;
  int nz = readers(0, z, xz, fz, lz), ny = readers(1, y, xy, fy, ly), nx = readers(2, x, xx, fx, lx);
  X_T sum = X_T(0);
  for (int a = 0; a < count(nz, fz, lz); ++a)
    for (int b = 0; b < count(ny, fy, ly); ++b)
      for (int k = 0; k < count(nx, fx, lx); ++k)
        sum += X_load(at(1, n, c, reader(nz, xz, fz, a), reader(ny, xy, fy, b), reader(nx, xx, fx, k)));
  X_store(at(0, n, c, z, y, x), sum);
#endif
}
