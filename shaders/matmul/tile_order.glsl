// a / b for a >= 0 and b > 0, in 32 bits where both fit (every launch so
// far): integer division is a software routine on NVIDIA, several times
// longer in 64 bits, and the tile kernels divide like this before their
// first loads (g^T @ x's workgroups spend 3.6 of their 8.8 us until those
// arrive: gemm_coop.comp's header).
int64_t quotient(int64_t a, int64_t b) {
  if ((a | b) < 0x80000000l) return int64_t(uint(a) / uint(b));
  return a / b;
}

// The output tile a workgroup of a matrix product computes: consecutive
// workgroups walk down a band of 8 tile rows, so the tiles of A and B they
// share stay in L2 (row by row, each tile row of a 4096^3 float32 product
// streams all of B, 64 MiB, more than the H200's 50 MiB of L2).
// t: the tile's index within its batch; returns (tile row, tile column).
i64vec2 tile_in_band(int64_t t, int64_t tiles_m, int64_t tiles_n) {
  int64_t band_size = 8 * tiles_n, band = quotient(t, band_size), first = band * 8;
  int64_t height = min(tiles_m - first, 8), within = t - band * band_size, column = quotient(within, height);
  return i64vec2(first + within - column * height, column);
}
