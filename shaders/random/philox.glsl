// Randomness for the sampling kernels: Philox4x32-10 (Salmon, Moraes, Dror
// and Shaw, "Parallel Random Numbers: As Easy as 1, 2, 3", SC'11), a
// counter-based generator: a 128-bit counter and a 64-bit key give four
// 32-bit words through ten rounds of two 32x32->64-bit products, with the key
// bumped by Weyl increments between rounds. No state passes between
// invocations, so any element can be drawn by any invocation.
//
// A launch is keyed by (seed, offset) from the device generator, which the
// host puts in scalar[2] and scalar[3] (csrc/aten/ops/random/sample.cpp).
// Block b of a launch is philox(counter = (b, offset), key = seed), and
// element i takes lane i % LANES of block i / LANES (LANES = 4 when an
// element needs one word, 2 when it needs two): its value is fixed by
// (seed, offset, i), whatever the workgroup size, device or path.

const uint kPhiloxM0 = 0xD2511F53u;
const uint kPhiloxM1 = 0xCD9E8D57u;
const uint kPhiloxW0 = 0x9E3779B9u;  // the golden ratio, 2^32 (sqrt(5) - 1) / 2
const uint kPhiloxW1 = 0xBB67AE85u;  // 2^32 (sqrt(3) - 1)

uvec4 philox4x32_10(uvec4 c, uvec2 k) {
  for (int round = 0; round < 10; ++round) {
    uint hi0, lo0, hi1, lo1;
    umulExtended(kPhiloxM0, c.x, hi0, lo0);
    umulExtended(kPhiloxM1, c.z, hi1, lo1);
    c = uvec4(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
    k += uvec2(kPhiloxW0, kPhiloxW1);
  }
  return c;
}

uvec4 random_block(uint64_t b) {
  uint64_t seed = args.scalar[2];
  uint64_t offset = args.scalar[3];
  return philox4x32_10(uvec4(uint(b), uint(b >> 32), uint(offset), uint(offset >> 32)),
                       uvec2(uint(seed), uint(seed >> 32)));
}

// Element i from the words r of its block; each kernel defines it.
void sample_into(uvec4 r, uint64_t i);

void element(uint64_t i) { sample_into(random_block(i / LANES), i); }

// The aligned contiguous path: i is a multiple of VEC (4, 8 or 16), so its
// VEC elements fill whole blocks, each computed once.
void elementv(uint64_t i) {
  for (uint k = 0; k < VEC; k += LANES) {
    uvec4 r = random_block((i + k) / LANES);
    for (uint lane = 0; lane < LANES; ++lane) sample_into(r, i + k + lane);
  }
}

// Uniform in [0, 1) from the top 24 bits of a word (every value exact in float).
float uniform24(uint w) { return float(w >> 8) * 5.9604644775390625e-8; }

#ifdef USES_F64
// Uniform in [0, 1) from the top 53 bits of two words (every value exact in double).
double uniform53(uint lo, uint hi) {
  return double((uint64_t(hi) << 21) | uint64_t(lo >> 11)) * 1.1102230246251565404e-16LF;
}
#endif

// True with probability ceil(p 2^32) / 2^32 (so exactly for p = 0 and 1):
// `threshold` is ceil(p 2^32).
bool below(uint w, uint64_t threshold) { return uint64_t(w) < threshold; }
