// Keys of WIDTH bytes and the order of (key, position) pairs shared by the
// tile and merge kernels. Position 0xFFFFFFFF with the largest key marks a
// tile's padding, which sorts after every real element.
#if WIDTH == 8
#define KEY uint64_t
#define KeyRef RefU64
const KEY kPadKey = ~0ul;
#else
#define KEY uint
#define KeyRef RefU32
const KEY kPadKey = ~0u;
#endif
const uint kPadPosition = ~0u;

bool before(KEY a, uint pa, KEY b, uint pb) { return a < b || (a == b && pa < pb); }

// Elements a tile kernel's workgroup holds in shared memory: 24 KiB with
// 8-byte keys, under the 32 KiB some devices (lavapipe) allow.
const uint kTile = 2048;
