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
