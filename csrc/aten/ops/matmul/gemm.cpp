// The matrix-product launcher: picks a kernel tier and passes the operands'
// strides, so transposed and strided inputs are consumed without copies.
#include "aten/ops/matmul/gemm.h"

#include <ATen/Context.h>
#include <ATen/TensorIterator.h>
#include <ATen/ops/empty.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan {
namespace {

// Tile configurations (variants.toml): output tile and step along K.
// gemm_tiled.comp (the portable tier): t64, t128 and t128w, t128's tile in
// half the invocations (their float32 step; 8-byte types take half).
// gemm_coop.comp (float16 and bfloat16 on tensor cores):
// s128 and s256 (128x256), compiled per operand layout, and v128 and v256,
// the same where both operands are vector-loadable (no element path, two
// steps of loads in flight: see VECTORS there); gemm_coop2.comp the same on
// NVIDIA's workgroup-scope matrices: c128 and c256. t128x64 (variants.toml
// says why) is taken only when forced, like c128/c256: on an H100
// (2026-12-05, float32 TFLOP/s) it lost to t128 at 4096^3 (31.5 against
// 32.2) and 8192^3 (32.9 against 34.4) and won the MNIST benchmark's x @
// W^T (K = 784: 26.8 against t64's 23.8, which pick_tile takes there); the
// shorter products (K = 128, 64) that t64 serves are not measured yet.
// (v64 and w128, 32x32 and 32x64 subgroup tiles for more workgroups per SM,
// lost to v128 everywhere on the H200, 2026-12-05: docs/measurements.md.
// So did v128 with fewer live registers on the H100, 2026-12-06: local
// memory 112 -> 48 bytes, no faster.) (d128, v128 in two shared stages with
// one barrier a step, lost in both its forms and was removed: H100, float16
// TFLOP/s, the first (each stage stored before the multiplies, 2026-12-06)
// 187 against 253 at 4096^3, the second (multiplies first, 2026-12-07) 181
// against 268, x @ W^T at h = 65536 / 393216 97.8 / 116 against 134 / 165,
// g^T @ x 61.1 / 64.0 against 95.6 / 108. (p128, v128 with each workgroup multiplying
// several output tiles in turn, so that one tile's epilogue hid the next
// one's first loads, lost and was removed: H100, 2026-12-07, float16
// TFLOP/s, 4096^3 144 against v128's 258, the MNIST benchmark's g^T @ x 60.2
// / 66.1 against 90.3 / 105 at h = 65536 / 393216, 352 bytes of local
// memory at the 255-register cap. So did k128, for K <= 128: resident
// workgroups each walking a column of 64 x 64 tiles, B kept in shared
// memory, the next tile's A loading during the current one's multiplies and
// stores: 41.1 / 44.3 against 93.1 / 108 on g^T @ x, 15.1 against 53.1 on
// the bmm 32x1024x64x1024, at 174 registers, two workgroups of 128 an SM.
// So did g64 and g32: 64x64 and 32x64 tiles, one subgroup a workgroup, each
// loading its fragments straight from memory by coopMatLoad on a buffer
// reference, no shared stage and no barrier: H100, 2026-12-07, float16
// TFLOP/s against v128's, 4096^3 25.2 / 25.5 against 256, g^T @ x at h =
// 393216 25.1 / 34.4 against 107, x @ W^T at h = 65536 18.6 / 20.7 against
// 123 (255 and 168 registers, no spills): NVIDIA's global fragment loads
// are no substitute for a shared stage. So did, same run as d128's second
// form: k64, v128 with steps of 64 along K and one step of loads in flight
// (each row of a K-contiguous operand read 128 bytes at a time where v128
// reads 64 twice), 188 at 4096^3, x @ W^T 92.8 / 117, g^T @ x 53.5 / 55.8,
// spilling 448-464 bytes; and m256, v256's 256 x 128 transposed (a quarter
// less loaded a flop than v128 with K = 128, no waste on N = 784), 243 at
// 4096^3, g^T @ x 91.4 / 102, x @ W^T (M = 128: half of each tile idle)
// 89.5 / 106, 255 registers, no spills. cuBLAS in that run: 604, x @ W^T
// 240 / 280, g^T @ x 247 / 290. So did z128 and y128, v128 with half of
// the first round of 264 workgroups (the upper half, the odd ones) started
// 4.4 us late, so that an SM's two workgroups would not load, multiply and
// store in lockstep: H100, 2026-12-07, g^T @ x 106 / 107 against 107 at h =
// 393216, 92.7 / 87.9 against 92.8 at 65536; the lockstep, if any, is not
// what costs the K = 128 products their time.) (a128 lost too: v128 with
// each workgroup keeping its 128 rows of A for all of K (at most 128) in
// shared memory, 46 KB, and walking their output tiles along N with the
// next tile's first B loads in flight during each epilogue, one workgroup
// a band of rows: H100, 2026-12-07, g^T @ x 83.6 / 94.3 against v128's 95.1
// / 108 at h = 65536 / 393216 (cuBLAS 249 / 283), 255 registers, no
// spills; the MNIST sweep's forward + backward went from 1.68-1.71x cuda's
// to 1.93-1.99x from 208M parameters up. With p128 and k128 that makes
// three designs whose workgroups walk several tiles in turn, each slower
// than one tile a workgroup.)
// (t128wk, t128wv with steps of 16 along K and 33 KiB of shared memory,
// lost and was removed: H100, 2026-12-07, float32 4096^3 19.2 against
// 34.3 TFLOP/s, cuBLAS 51.4.)
// u128 (64 x 128 tiles, 32 x 64 a subgroup, 202-204 registers, no spills) is
// the v tiles' choice for products of at most 64 rows, which leave half of
// a 128-row tile idle: H100, 2026-12-07 (kernel_times.py), ResNet-50's 3x3
// convolution 32x64x56x56 float16, weight @ columns (M = 64) 98.9 us
// against v256's 127.9. Forced on other products it lost: 4096^3 201
// against 258 TFLOP/s, the bmm 32x1024x64x1024 42.5 against 53, the MNIST
// benchmark's x @ W^T / g^T @ x at h = 393216 132 / 77.4 against 166 /
// 108 (gemm_tiles.py). It also won the convolution's weight gradient (M =
// 64, split K: 104 against v128_nt's 141 us), which the rule takes, and its
// input gradient (M = 576, K = 64, a float32 out: 391 against v128_tn's
// 498), which the rule leaves on v128 (the bmm above has K = 64 too); with
// the float32 workspace written in 16-byte vectors, v128_tn takes 149 us
// there and u128_tn 162 (2026-12-07, twenty-ninth session).
// q128 (gemm_coop_phases, float16 only) and qt128
// (gemm_tiled_phases) are v128 and t128wv writing clock stamps, for
// benchmark/coop_phases.py: forced only. n16 (gemm_coop_thin) is a tile-less kernel (thin_kernel);
// small_k8 forces gemm_small_k.comp's k12r8 (blocks of 8 rows) where k12 would run.
// rows_b16 / rows_b4 force r12's 16-byte or narrow form (launch_thin).
struct Tile {
  const char* name;
  bool coop, vectors;  // tensor-core tier; both operands vector-loadable only
  int64_t m, n, k;
  const char* kernel;
};
constexpr Tile kTiles[] = {{"t64", false, false, 64, 64, 16, "gemm_tiled"},
                           {"t128", false, false, 128, 128, 8, "gemm_tiled"},
                           {"s128", true, false, 128, 128, 32, "gemm_coop"},
                           {"s256", true, false, 128, 256, 32, "gemm_coop"},
                           {"c128", true, false, 128, 128, 32, "gemm_coop2"},
                           {"c256", true, false, 128, 256, 32, "gemm_coop2"},
                           {"v128", true, true, 128, 128, 32, "gemm_coop"},
                           {"v256", true, true, 128, 256, 32, "gemm_coop"},
                           {"t128x64", false, false, 128, 64, 8, "gemm_tiled"},
                           {"t128w", false, false, 128, 128, 8, "gemm_tiled"},
                           {"dot", false, false, 0, 0, 0, "gemm_dot"},
                           {"rows", false, false, 0, 0, 0, "gemm_rows"},
                           {"rows_k", false, false, 0, 0, 0, "gemm_rows"},
                           {"small_k", false, false, 0, 0, 0, "gemm_small_k"},
                           {"t128wv", false, true, 128, 128, 8, "gemm_tiled"},
                           {"rows16", false, false, 0, 0, 0, "gemm_rows"},
                           {"q128", true, true, 128, 128, 32, "gemm_coop_phases"},
                           {"qt128", false, true, 128, 128, 8, "gemm_tiled_phases"},
                           {"n16", true, true, 0, 0, 0, "gemm_coop_thin"},
                           {"u128", true, true, 64, 128, 32, "gemm_coop"},
                           {"small_k8", false, false, 0, 0, 0, "gemm_small_k"},
                           {"rows_b16", false, false, 0, 0, 0, "gemm_rows"},
                           {"rows_b4", false, false, 0, 0, 0, "gemm_rows"}};
constexpr const Tile &kT64 = kTiles[0], &kT128 = kTiles[1], &kS128 = kTiles[2], &kS256 = kTiles[3],
                     &kV128 = kTiles[6], &kV256 = kTiles[7], &kT128W = kTiles[9],
                     &kDot = kTiles[10], &kRows = kTiles[11], &kRowsK = kTiles[12],
                     &kSmallK = kTiles[13], &kT128WV = kTiles[14], &kRows16 = kTiles[15],
                     &kPhases = kTiles[16], &kTiledPhases = kTiles[17], &kCoopThin = kTiles[18],
                     &kU128 = kTiles[19], &kSmallK8 = kTiles[20], &kRowsB16 = kTiles[21],
                     &kRowsB4 = kTiles[22];
// The larger tiles of a tier are used once the output has this many of
// them and K is at least the tier's minimum below (H200, float16 8192^3: s256
// 205 against s128's 191 TFLOP/s, 4096^3 with 512 tiles: 187 against 169;
// smaller outputs not measured). Short products want the smaller tiles:
// with K = 128 s128 beat s256 (the MNIST benchmark's g^T @ x, h = 393216: 77
// against 64 TFLOP/s in float16, 76 against 63 in bfloat16), with K = 784
// s256 won (x @ W^T, h = 65536: 100 against 80). On the portable tier
// (float32, chunked staging) t128 takes 158 registers, one workgroup per
// SM, t64 103 and two: t128 won from K = 2048 (2048^3 30.2 against 26.4,
// 8192^3 34.3 against 28.7, g @ W with K = 65536 through split-K 26.8
// against 24.9) and lost below (K = 784: 21.9 against 24.0, K = 128: 11.6
// against 16.3, the bmm's K = 64: 7.5 against 11.2). For float32 the large
// tile is t128w (128 invocations of 8x16 blocks, 244 registers): on the
// H100 (2026-12-06) 33.2 against t128's 32.1 TFLOP/s at 4096^3, 35.3
// against 34.4 at 8192^3, 34.6 against 33.2 with B transposed (cuBLAS
// 51.7, 51.0, 49.3); the other dtypes keep t128 (not measured). Where
// both operands are vector-loadable it is t128wv, the same without the
// value-by-value load path: 34.3 against t128w's 32.9 at 4096^3 (cuBLAS
// 51.0; H100, 2026-12-06, 242 registers).
//
// gemm_coop2.comp's c128/c256 are taken only when forced: on the H200
// (float16, gemm_tiles.py) c256 ran 144 / 155 TFLOP/s at 4096^3 / 8192^3
// against s256's 190 / 208 (c128: 103 / 105) with 220-242 registers and
// no spills, and won only g @ W of the MNIST benchmark at h = 65536
// (split-K, K = 65536: 72 against s128's 58-67), too little to pick it by.
constexpr int64_t kLargeTilesMin = 256;
constexpr int64_t kWideTilesMinK = 256;
constexpr int64_t kT128MinK = 1024;

// TORCHVULKAN_GEMM_TILE names a configuration to use instead for every
// product of its tier (for measuring them against each other).
const Tile* forced_tile() {
  static const Tile* forced = []() -> const Tile* {
    const char* name = std::getenv("TORCHVULKAN_GEMM_TILE");
    if (!name) return nullptr;
    for (const Tile& tile : kTiles)
      if (std::string_view(name) == tile.name) return &tile;
    TORCH_CHECK(false, "TORCHVULKAN_GEMM_TILE: unknown tile configuration ", name);
  }();
  return forced;
}

int64_t tile_count(const Tile& tile, int64_t batches, int64_t M, int64_t N) {
  return batches * ((M + tile.m - 1) / tile.m) * ((N + tile.n - 1) / tile.n);
}

// The configuration for a product on one tier; `coop2` when the product can
// take gemm_coop2.comp's forced configuration, `vectors` the v tiles,
// `float32` float32 operands.
const Tile& pick_tile(bool coop, bool coop2, bool vectors, bool float32, int64_t batches, int64_t M,
                      int64_t N, int64_t K) {
  const Tile* forced = forced_tile();
  if (forced && forced->m > 0 && forced->coop == coop &&
      (coop2 || std::string_view(forced->kernel) != "gemm_coop2") && (vectors || !forced->vectors))
    return *forced;
  if (coop && vectors && M <= kU128.m) return kU128;
  const Tile &small = !coop     ? kT64
                      : vectors ? kV128
                                : kS128,
             &large = !coop     ? (float32 ? (vectors ? kT128WV : kT128W) : kT128)
                      : vectors ? kV256
                                : kS256;
  return N > small.n && tile_count(large, batches, M, N) >= kLargeTilesMin &&
                 K >= (coop ? kWideTilesMinK : kT128MinK)
             ? large
             : small;
}

std::mutex tier_mutex;
std::map<std::string, int64_t> tier_counts;
// gemm_phase_stamps()'s tensor, never destroyed: a static tensor would be
// freed at exit, after the device it lives on.
at::Tensor& last_stamps() {
  static auto* stamps = new at::Tensor();
  return *stamps;
}

void count_tier(const char* tier) {
  std::lock_guard<std::mutex> lock(tier_mutex);
  ++tier_counts[tier];
}

// Whether out's dtype sums in float32, so that its partial sums fit the
// split-K workspace.
bool float_sums(c10::ScalarType type) {
  return type == c10::kHalf || type == c10::kBFloat16 || type == c10::kFloat;
}

// The orientation the kernels stage an operand seen as [rows, k] in:
// K-major when K is contiguous or neither dim is, else rows-major.
bool k_major(int64_t row_stride, int64_t k_stride) {
  return k_stride == 1 || row_stride != 1;
}

// True when the kernels may read `t` ([rows, k] with strides (rows, k)) in
// aligned vectors of `chunk` elements (gemm_coop.comp: 8, 16 bytes;
// gemm_tiled.comp: 4): contiguous along the dim they stage along, whose
// extent is a multiple of chunk, the other stride and the batch stride
// multiples of chunk, 16-byte aligned.
bool vector_loadable(const at::Tensor& t, int64_t batch_stride, int64_t rows, int64_t k,
                     int64_t row_stride, int64_t k_stride, int64_t chunk) {
  bool along_k = k_major(row_stride, k_stride);
  if ((along_k ? k_stride : row_stride) != 1) return false;
  int64_t extent = along_k ? k : rows, other = along_k ? row_stride : k_stride;
  return extent % chunk == 0 && other % chunk == 0 && batch_stride % chunk == 0 &&
         address_of(t) % 16 == 0;
}

// The tile-less kernels for products with few rows or columns, memory
// bound, where the tiles compute mostly padding. They sum float16, bfloat16
// (and, but for n16, float32) in float32; none runs while
// TORCHVULKAN_GEMM_TILE forces another configuration.
// - gemm_rows.comp: at most kThin rows, B contiguous along N in 16-byte
//   vectors: r12 for at most 12 rows of a 16-bit dtype, r16 otherwise.
//   H100, 2026-12-06, TFLOP/s (gemm_tiles.py), the MNIST benchmark's g2^T @
//   a at h = 393216 (M = 10): float16 r12 15.1 against r16's 8.48 and the
//   v128 tiles' 5.54 (cuBLAS 17.2); float32 r12 8.37 against r16's 8.86
//   (cuBLAS 8.43), so float32 keeps r16. r12 holds 168 registers against
//   r16's 194 in float16: the product's 768 workgroups fit the 132 SMs in
//   one wave (6 an SM) instead of 1.16 (5 an SM).
// - gemm_rows.comp's r16k (r12k likewise): at most kThin rows, B contiguous
//   along K in 16-byte vectors, such as a @ W2^T and linear layers on a few
//   inputs, both taken transposed. Same machine, float16: a @ W2^T (N = 10,
//   K = 393216) r12k 8.24 against r16k's 7.45 (cuBLAS 17.1), 109.6 us plus
//   16.4 for the split sum (kernel_times.py), the same with about 1,400 and
//   1,800 workgroups as with 1,024 and slower with 2,400 (140.5 us);
//   float32 5.48 against 5.39 (cuBLAS 5.68). Earlier (2026-12-06) r16k won
//   the linear layers against the tiles: float16 4 x 4096 -> 4096 2.66
//   against 1.86, 16 x 4096 -> 14336 11.8 against 8.08; float32 2.22 and
//   10.3 against 1.32 and 5.54.
// - gemm_dot.comp: at most kThin columns, both operands contiguous along K;
//   taken only when forced (TORCHVULKAN_GEMM_TILE=dot). Same machine,
//   float16, its teams of 32 invocations reading rows of A with B staged in
//   shared memory: a @ W2^T 7.99 against r12k's 7.83, linear 16 x 4096 ->
//   14336 9.87 against r16k's 11.3 (gemm_dot.comp has its earlier forms).
// - gemm_small_k.comp: at most kShortK values of K, B contiguous along N in
//   16-byte vectors, such as the MNIST benchmark's g2 @ W2 (K = 10): same
//   run, 10.7 TFLOP/s against the tiles' 8.82 in float16 (cuBLAS 16.3), 9.19
//   against 2.51 in float32 (cuBLAS 8.78). Its k12 variant takes K <= 12.
// - gemm_coop_thin.comp (n16): at most 16 columns on tensor cores, both
//   operands contiguous along K in 16-byte vectors, float16 and bfloat16,
//   always through the split-K workspace; by default for more than 16 rows
//   and K >= kCoopThinMinK, where it was measured (H100, 2026-12-07, a @
//   W2^T in float16: 14.0 TFLOP/s against r12k's 8.22, cuBLAS 17.0; shorter
//   K, many rows and bfloat16 not measured yet).
constexpr int64_t kThin = 16, kDotRows = 32, kShortK = 16;
constexpr int64_t kShortKRows = 32;  // gemm_small_k.comp's rows per workgroup (ROWS)
// r12 (64 invocations of 16 bytes of columns) gives way to its narrow form
// r12b4 below this many workgroups: H100, 2026-12-07, g2^T @ a at h =
// 65536 / 131072 (128 / 256 of them) ran faster on r12b4, at 393216 (768)
// slower (gemm_rows.comp).
constexpr int64_t kNarrowBelow = 512;
constexpr int64_t kRowsWorkgroup = 64;  // r12's and k12's invocations (variants.toml)
// k12 gives way to k12r8 below this many workgroups: H100, 2026-12-07,
// g2 @ W2 at h = 65536 (512 of them) 5.47 TFLOP/s on k12r8 against 4.87,
// at 393216 (3,072) 8.53 against 11.5 (cuBLAS 12.2 / 16.3; gemm_tiles.py,
// float16; float32 not measured, so it keeps k12).
constexpr int64_t kEightRowsBelow = 1024;
// gemm_coop_thin.comp's rows per workgroup (BM), step along K (BK) and
// shortest K by default.
constexpr int64_t kCoopThinRows = 128, kCoopThinStep = 64, kCoopThinMinK = 4096;
// gemm_rows.comp's forms that lost to r16k on the H100 (2026-12-06,
// gemm_tiles.py, TFLOP/s on a @ W2^T against r16k's 6.36 in float16, 4.68
// in float32; docs/measurements.md), removed: issuing each group of B's
// loads before multiplying the previous group (6.25), two or four columns
// an invocation (5.78, and prefetching 3.86; float32 4.19 and 3.46), 16 or
// 32 vectors of a column in flight instead of 8 (5.45, 2.82).
//
// TORCHVULKAN_GEMM_TILE=rows16 takes r16 and r16k for every product of at
// most kThin rows (measuring them against r12 and r12k).
bool thin_allowed(const Tile& kernel) {
  const Tile* forced = forced_tile();
  // rows_b16 / rows_b4 change only r12's form, so that whole training
  // steps can be timed with them.
  if (!forced || forced == &kRowsB16 || forced == &kRowsB4) return &kernel != &kDot;
  return forced == &kernel || (forced == &kRows16 && (&kernel == &kRows || &kernel == &kRowsK)) ||
         (forced == &kSmallK8 && &kernel == &kSmallK);
}

// (batch, row, col) strides of a 2-D or 3-D tensor; a 2-D one repeats per batch.
std::array<int64_t, 3> strides3(const at::Tensor& t) {
  if (t.dim() == 3) return {t.stride(0), t.stride(1), t.stride(2)};
  return {0, t.stride(0), t.stride(1)};
}

// The tile-less kernel for out = a @ b, if one fits.
const Tile* thin_kernel(const at::Tensor& a, const at::Tensor& b, const at::Tensor& out) {
  int64_t M = out.size(-2), N = out.size(-1), K = a.size(-1);
  if (!float_sums(out.scalar_type()) || (M > kThin && N > kThin && K > kShortK)) return nullptr;
  auto sa = strides3(a), sb = strides3(b);
  bool b_vectors = vector_loadable(b, sb[0], N, K, sb[2], sb[1], 16 / b.element_size());
  // n16 by default only where measured to win: more than 16 rows, long K.
  bool long_thin = M > kThin && K >= kCoopThinMinK;
  if (N <= kThin && (long_thin || forced_tile() == &kCoopThin) && sa[2] == 1 && sb[1] == 1 &&
      b_vectors && vector_loadable(a, sa[0], M, K, sa[1], sa[2], 8) && thin_allowed(kCoopThin) &&
      device_for(out).pipelines().available(std::string(kCoopThin.kernel) + ".n16." +
                                            dtype_name(out.scalar_type())))
    return &kCoopThin;
  if (M <= kThin && b_vectors && !k_major(sb[2], sb[1]) && thin_allowed(kRows)) return &kRows;
  if (K <= kShortK && b_vectors && !k_major(sb[2], sb[1]) && thin_allowed(kSmallK)) return &kSmallK;
  if (M <= kThin && b_vectors && sb[1] == 1 && thin_allowed(kRowsK)) return &kRowsK;
  if (N <= kThin && thin_allowed(kDot) && sa[2] == 1 && sb[1] == 1) return &kDot;
  return nullptr;
}

// Whether the device and the build have the tensor-core tier for products of
// `inputs`.
bool coop_tier(rt::Device& dev, c10::ScalarType inputs) {
  return dev.pipelines().available(std::string("gemm_coop.s128_nn.") + dtype_name(inputs));
}

// float32 products under torch.set_float32_matmul_precision("medium") or
// ("high") may run on bfloat16 tensor cores, as PyTorch defines those modes:
// "medium" multiplies the operands rounded to bfloat16, "high" each operand
// as the sum of two bfloat16 numbers (hi + lo: 16 significant bits),
// hi*hi + hi*lo + lo*hi as one product with K tripled. Both accumulate and
// write float32 (through the split-K workspace). Only where bfloat16
// products have the tensor-core tier (elsewhere they are not faster, and the
// modes compute as "highest", as PyTorch allows);
// TORCHVULKAN_FP32_MATMUL_VIA_BF16=1 takes this route on any device, for
// testing it on CPU drivers.
bool bf16_route(rt::Device& dev, at::Float32MatmulPrecision precision) {
  static const bool any_tier = [] {
    const char* v = std::getenv("TORCHVULKAN_FP32_MATMUL_VIA_BF16");
    return v && std::string_view(v) == "1";
  }();
  // ATen's NoTF32Guard asks for full float32 where its composites need it
  // (linalg_matrix_exp's approximant).
  return precision != at::Float32MatmulPrecision::HIGHEST &&
         !at::NoTF32Guard::should_disable_tf32() && (any_tier || coop_tier(dev, c10::kBFloat16));
}

// `t` as bfloat16 thirds along `dim` (tripled): hi, hi, lo when `lo_last`
// (A's order along K), else hi, lo, hi (B's), in one pass
// (shaders/matmul/bf16_split.comp).
at::Tensor split_thirds(const at::Tensor& t, int64_t dim, bool lo_last) {
  std::vector<int64_t> sizes = t.sizes().vec();
  int64_t k = t.size(dim);
  sizes[t.dim() + dim] *= 3;
  at::Tensor out = at::empty(sizes, t.options().dtype(at::kBFloat16));
  at::Tensor first = out.narrow(dim, 0, k), second = out.narrow(dim, k, k),
             third = out.narrow(dim, 2 * k, k);
  auto iter = at::TensorIteratorConfig()
                  .add_output(first)
                  .add_output(lo_last ? second : third)
                  .add_output(lo_last ? third : second)
                  .add_const_input(t)
                  .check_all_same_dtype(false)
                  .build();
  launch_elementwise("bf16_split.hi_lo.f32", iter);
  return out;
}

// The bfloat16 operands of bf16_route for a [.., M, K] and b [.., K, N]:
// rounded, or (`split`) as hi + lo: a as [hi, hi, lo] along K, b as
// [hi; lo; hi], so one product with K tripled sums hi*hi + hi*lo + lo*hi.
std::pair<at::Tensor, at::Tensor> bf16_operands(const at::Tensor& a, const at::Tensor& b,
                                                bool split) {
  if (!split) return {a.to(at::kBFloat16), b.to(at::kBFloat16)};
  return {split_thirds(a, -1, true), split_thirds(b, -2, false)};
}

// gemm_splitk_reduce.comp's workgroup (WORKGROUP of its variants in
// variants.toml): 1,024 invocations where the device allows them (the gemm
// variant, faster: see the source), else 256 (gemm256).
int64_t reduce_workgroup(rt::Device& dev) {
  bool wide =
      dev.caps().max_workgroup_invocations >= 1024 && dev.caps().max_workgroup_size[0] >= 1024;
  return wide ? 1024 : 256;
}

// gemm_splitk_reduce.comp's sums4 variant (four sums an invocation) from
// this many sums: there a variant whose invocation takes one sum needs
// several waves of workgroups (the source has the figures).
constexpr int64_t kSums4Min = 262144;

// Dispatches gemm_splitk_reduce.comp for out's `sums` float32 sums of the
// workspace, `lanes` invocations a sum (reduce_lanes; 1 for sums4).
void reduce_sums(rt::Device& dev, const at::Tensor& out, const at::Tensor& workspace, int64_t sums,
                 int64_t lanes, uint64_t* args, std::vector<int64_t>& meta,
                 std::span<const rt::Access> touched) {
  bool four = lanes == 1 && sums >= kSums4Min && sums % 4 == 0 && address_of(workspace) % 16 == 0;
  const char* variant = four ? "sums4." : reduce_workgroup(dev) == 1024 ? "gemm." : "gemm256.";
  const rt::Kernel& kernel = dev.pipelines().get(std::string("gemm_splitk_reduce.") + variant +
                                                 dtype_name(out.scalar_type()));
  dev.stream().dispatch(kernel, args, sizeof(*args), meta.data(),
                        static_cast<uint32_t>(meta.size() * 8),
                        static_cast<uint64_t>(four ? sums / 4 : sums * lanes), touched);
}

// gemm_splitk_reduce.comp's invocations per sum (parameter word 27): enough
// for about 64K invocations in all, each taking at least 16 splits, and at
// most its workgroup over 32, so that each subgroup reads 32 consecutive
// sums.
int64_t reduce_lanes(rt::Device& dev, int64_t sums, int64_t splits) {
  int64_t lanes = 1, most = reduce_workgroup(dev) / 32;
  while (lanes < most && sums * lanes < 65536 && splits >= lanes * 16) lanes *= 2;
  return lanes;
}

// A tile-less kernel's launch (thin_kernel): gemm_dot.comp in blocks of
// kDotRows rows, about 512 workgroups, gemm_rows.comp in blocks of its
// workgroup's columns, about 1024, each times splits of K of at least 1024
// or 256 values, their float32 sums added by gemm_splitk_reduce.comp where
// K is split; gemm_small_k.comp in blocks of its workgroup's columns and
// kShortKRows rows (8 for k12r8), K never split. `meta` holds the parameter
// block up to the activation; `out_vectors`: out may be written in 16-byte
// vectors (gemm_rows.comp's r16 and gemm_small_k.comp, with one split and
// nothing to apply but alpha).
void launch_thin(rt::Device& dev, const Tile& thin, std::vector<int64_t>& meta, const at::Tensor& a,
                 const at::Tensor& b, const at::Tensor& out, const at::Tensor& bias,
                 int64_t batches, int64_t M, int64_t N, int64_t K, bool out_vectors) {
  bool dot = &thin == &kDot, rows = &thin == &kRows, short_k = &thin == &kSmallK,
       coop = &thin == &kCoopThin;
  // gemm_dot.comp reads both operands in 16-byte vectors along K where it
  // can (its vec variant), each split a whole number of them.
  int64_t vector = 16 / out.element_size();
  auto sa = strides3(a), sb = strides3(b);
  bool dot_vectors = dot && vector_loadable(a, sa[0], M, K, sa[1], sa[2], vector) &&
                     vector_loadable(b, sb[0], N, K, sb[2], sb[1], vector);
  count_tier(thin.name);
  std::string dtype = dtype_name(out.scalar_type());
  bool twelve = M <= 12 && out.element_size() == 2 && forced_tile() != &kRows16;
  // Blocks of columns that r12 and k12 (kRowsWorkgroup invocations of 16
  // bytes) split N into: r12's workgroups, and k12's per kShortKRows rows.
  int64_t column_blocks = batches * ((N + kRowsWorkgroup * vector - 1) / (kRowsWorkgroup * vector));
  // k12r8 (k12 in blocks of 8 rows, four times the workgroups) for 16-bit
  // products that give k12 fewer than kEightRowsBelow workgroups;
  // TORCHVULKAN_GEMM_TILE=small_k8 takes it for every product k12 serves.
  bool eight_rows = short_k && K <= 12 &&
                    (forced_tile() == &kSmallK8 ||
                     (out.element_size() == 2 &&
                      column_blocks * ((M + kShortKRows - 1) / kShortKRows) < kEightRowsBelow));
  // r12's narrow form r12b4 (4 bytes of B's rows an invocation instead of
  // 16) where r12 would run fewer than kNarrowBelow workgroups
  // (gemm_rows.comp has the figures); TORCHVULKAN_GEMM_TILE=rows_b16 /
  // rows_b4 force one form.
  bool narrow =
      rows && twelve &&
      (forced_tile() == &kRowsB4 || (forced_tile() != &kRowsB16 && column_blocks < kNarrowBelow));
  int64_t load_bytes = narrow ? 4 : 16;
  const char* variant = dot       ? (dot_vectors ? ".vec." : ".any.")
                        : coop    ? ".n16."
                        : short_k ? (eight_rows ? ".k12r8."
                                     : K <= 12  ? ".k12."
                                                : ".k16.")
                        : rows    ? (narrow   ? ".r12b4."
                                     : twelve ? ".r12."
                                              : ".r16.")
                                  : (twelve ? ".r12k." : ".r16k.");
  const rt::Kernel& kernel = dev.pipelines().get(std::string(thin.kernel) + variant + dtype);
  // Columns per workgroup: gemm_rows.comp's r12/r16 and gemm_small_k.comp
  // take 16 bytes of them an invocation (the narrow forms load_bytes), r16k one.
  int64_t short_rows = eight_rows ? 8 : kShortKRows;
  int64_t columns =
      static_cast<int64_t>(kernel.workgroup_size) * (rows      ? load_bytes / out.element_size()
                                                     : short_k ? vector
                                                               : 1);
  int64_t blocks = batches *
                   (dot    ? (M + kDotRows - 1) / kDotRows
                    : coop ? (M + kCoopThinRows - 1) / kCoopThinRows
                           : (N + columns - 1) / columns) *
                   (short_k ? (M + short_rows - 1) / short_rows : 1);
  int64_t target = dot || coop ? 512 : 1024;
  int64_t min_split = dot ? 1024 : coop ? 512 : 256;
  int64_t splits =
      std::clamp<int64_t>((target + blocks - 1) / blocks, 1, std::max<int64_t>(1, K / min_split));
  // Splits of whole steps: gemm_coop_thin.comp's 64 values of K, the others' vectors.
  int64_t step = coop ? kCoopThinStep : vector;
  int64_t chunk = std::max<int64_t>(1, (K + splits - 1) / splits);
  chunk = (chunk + step - 1) / step * step;
  splits = std::max<int64_t>(1, (K + chunk - 1) / chunk);
  // gemm_coop_thin.comp always writes its sums to the workspace.
  bool sums = splits > 1 || coop;
  at::Tensor workspace =
      sums ? at::empty({splits * batches * M * N}, out.options().dtype(at::kFloat)) : at::Tensor();
  int64_t flags = (rows || short_k) && splits == 1 && out_vectors ? 4 : 0;
  int64_t lanes = reduce_lanes(dev, batches * M * N, splits);
  meta.insert(meta.end(), {flags, splits, chunk, int64_t(address_of(workspace)), lanes});
  uint64_t args = 0;  // the kernels' only push constant: the parameter block's address
  auto dispatch = [&](const rt::Kernel& kernel, uint64_t invocations,
                      std::span<const rt::Access> touched) {
    dev.stream().dispatch(kernel, &args, sizeof(args), meta.data(),
                          static_cast<uint32_t>(meta.size() * 8), invocations, touched);
  };
  std::vector<rt::Access> first = {span_of(a, false), span_of(b, false)};
  first.push_back(sums ? span_of(workspace, true) : span_of(out, true));
  if (bias.defined() && !sums) first.push_back(span_of(bias, false));
  dispatch(kernel, static_cast<uint64_t>(blocks * splits) * kernel.workgroup_size, first);
  if (!sums) return;
  std::vector<rt::Access> second = {span_of(workspace, false), span_of(out, true)};
  if (bias.defined()) second.push_back(span_of(bias, false));
  reduce_sums(dev, out, workspace, batches * M * N, lanes, &args, meta, second);
}

// out = act(alpha * a @ b + beta * bias) from a of type `inputs`: out's own,
// 16-bit floats for a float32 out (their sums then always go through the
// float32 workspace), or int8 or uint8 with an int8 b for an int32 out
// (gemm_tiled_i32 writes it).
void launch_gemm(const at::Tensor& a, const at::Tensor& b, const at::Tensor& out,
                 const at::Tensor& bias_in, const c10::Scalar& alpha, const c10::Scalar& beta,
                 Epilogue epilogue, c10::ScalarType inputs) {
  bool batched = out.dim() == 3;
  int64_t batches = batched ? out.size(0) : 1;
  int64_t M = out.size(-2), N = out.size(-1), K = a.size(-1);
  c10::ScalarType type = out.scalar_type();
  at::Tensor bias = bias_in.defined() ? bias_in.expand(out.sizes()) : bias_in;
  // A product a tile-less kernel serves only transposed (few columns, such
  // as a linear layer's weight gradient with 10 outputs) takes it as out^T =
  // b^T a^T: every kernel takes any strides, so the transposition is free.
  const Tile* thin = inputs == type ? thin_kernel(a, b, out) : nullptr;
  if (inputs == type && !thin && thin_kernel(b.mT(), a.mT(), out.mT())) {
    launch_gemm(b.mT(), a.mT(), out.mT(), bias.defined() ? bias.mT() : bias, alpha, beta, epilogue,
                inputs);
    return;
  }

  std::vector<int64_t> meta = {int64_t(address_of(a)),
                               int64_t(address_of(b)),
                               int64_t(address_of(out)),
                               int64_t(address_of(bias)),
                               M,
                               N,
                               K,
                               batches};
  for (const at::Tensor* t : {&a, &b, &out}) {
    auto s = strides3(*t);
    meta.insert(meta.end(), s.begin(), s.end());
  }
  auto bias_strides = bias.defined() ? strides3(bias) : std::array<int64_t, 3>{0, 0, 0};
  meta.insert(meta.end(), bias_strides.begin(), bias_strides.end());
  // alpha and beta in the accumulator type: double for float64, float for other floats.
  c10::ScalarType acc = c10::isFloatingType(type) && type != c10::kDouble ? c10::kFloat : type;
  meta.push_back(static_cast<int64_t>(scalar_bits(alpha, acc)));
  meta.push_back(static_cast<int64_t>(scalar_bits(bias.defined() ? beta : c10::Scalar(0), acc)));
  meta.push_back(static_cast<int64_t>(epilogue));

  rt::Device& dev = device_for(out);
  auto sa = strides3(a), sb = strides3(b), sc = strides3(out);
  auto aligned = [](const at::Tensor& t) { return address_of(t) % 16 == 0; };
  bool no_bias = !bias.defined() || beta.toDouble() == 0;
  if (thin) {
    int64_t vector = 16 / out.element_size();
    bool out_vectors = epilogue == Epilogue::none && no_bias && sc[2] == 1 && sc[1] % vector == 0 &&
                       sc[0] % vector == 0 && aligned(out);
    launch_thin(dev, *thin, meta, a, b, out, bias, batches, M, N, K, out_vectors);
    return;
  }
  // Tier 2 (tensor cores) where the device and the build have it, else the portable tier.
  bool use_coop = coop_tier(dev, inputs);
  count_tier(use_coop ? "coopmat" : "tiled");
  std::vector<rt::Access> accesses = {span_of(a, false), span_of(b, false), span_of(out, true)};
  if (bias.defined()) accesses.push_back(span_of(bias, false));
  uint64_t args = 0;  // the kernels' only push constant: the parameter block's address
  auto launch = [&](const rt::Kernel& kernel, uint64_t invocations,
                    std::span<const rt::Access> touched) {
    dev.stream().dispatch(kernel, &args, sizeof(args), meta.data(),
                          static_cast<uint32_t>(meta.size() * 8), invocations, touched);
  };
  // Whether each operand can be read in aligned chunks (gemm_coop*.comp: 8
  // elements, 16 bytes; gemm_tiled.comp: 4), out written in rows of 16-byte
  // vectors, and the bias left out (beta == 0 ignores it, NaN included).
  int64_t chunk_elements = use_coop ? 8 : 4;
  bool a_vectors = vector_loadable(a, sa[0], M, K, sa[1], sa[2], chunk_elements);
  bool b_vectors = vector_loadable(b, sb[0], N, K, sb[2], sb[1], chunk_elements);
  bool out_rows = sc[2] == 1 && sc[1] % 8 == 0 && sc[0] % 8 == 0 && aligned(out);
  // gemm_coop2.comp, where forced, reads both operands as vectors, writes
  // rows of out, applies alpha alone, and indexes in 32 bits.
  const Tile* forced = forced_tile();
  bool coop2 = use_coop && forced && std::string_view(forced->kernel) == "gemm_coop2" &&
               dev.pipelines().available(std::string("gemm_coop2.c128_nn.") + dtype_name(inputs)) &&
               a_vectors && b_vectors && out_rows && epilogue == Epilogue::none && no_bias &&
               std::max({M, N, K, sa[1], sa[2], sb[1], sb[2], sc[1]}) < (int64_t{1} << 31);
  // The v tiles index in 32 bits (K with a step of slack).
  bool vectors = a_vectors && b_vectors && std::max({M, N, K + 64}) < (int64_t{1} << 31);
  const Tile& tile = pick_tile(use_coop, coop2, vectors, inputs == c10::kFloat, batches, M, N, K);
  bool int32_out = type == c10::kInt && inputs != type;
  std::string name = std::string(tile.kernel) + (int32_out ? "_i32." : ".") + tile.name;
  if (use_coop)
    name += std::string("_") + (k_major(sa[1], sa[2]) ? "n" : "t") +
            (k_major(sb[2], sb[1]) ? "t" : "n");
  const rt::Kernel& kernel = dev.pipelines().get(name + "." + dtype_name(inputs));
  // Split-K when the output has too few tiles to fill the GPU (the MNIST
  // benchmark's g @ W: 7 tiles, K up to 393216): ~256 workgroups in all,
  // each split at least 8 steps of K. Only with float32 accumulators (the
  // partial sums' workspace is float32).
  int64_t tiles = tile_count(tile, batches, M, N);
  int64_t k_steps = (K + tile.k - 1) / tile.k;
  int64_t splits = float_sums(type) ? std::clamp<int64_t>((256 + tiles - 1) / tiles, 1,
                                                          std::max<int64_t>(1, k_steps / 8))
                                    : 1;
  int64_t chunk =
      std::max<int64_t>(1, (k_steps + splits - 1) / splits) * tile.k;  // K = 0: one empty split
  splits = std::max<int64_t>(1, (K + chunk - 1) / chunk);
  bool through_workspace = splits > 1 || (inputs != type && !int32_out);
  // A float32 product of bfloat16 operands in one split with nothing to
  // apply writes its sums straight into a contiguous out (its layout is the
  // workspace's), without the reduction pass (4096^3 on the H200: 314 us,
  // 23% of "medium"'s time).
  bool sums_are_out = through_workspace && splits == 1 && type == c10::kFloat &&
                      out.is_contiguous() && alpha.equal(1) && no_bias &&
                      epilogue == Epilogue::none;
  bool bias_row = no_bias || (bias_strides[1] == 0 && bias_strides[2] == 1 &&
                              bias_strides[0] % 8 == 0 && aligned(bias));
  bool vector_store =
      !through_workspace && epilogue == Epilogue::none && out_rows && N % 8 == 0 && bias_row;
  at::Tensor workspace;
  if (sums_are_out)
    workspace = out;
  else if (through_workspace)
    workspace = at::empty({splits * batches * M * N}, out.options().dtype(at::kFloat));
  bool workspace_vectors = through_workspace && N % 4 == 0 && aligned(workspace);
  // The kernels' flags: vector loads of A and B, vector stores (gemm_coop.comp;
  // gemm_tiled.comp for a float32 out), the orientation each operand is
  // staged in (gemm_tiled.comp; gemm_coop.comp's variant fixes it) and
  // workspace rows written in 16-byte vectors.
  meta.push_back((a_vectors ? 1 : 0) | (b_vectors ? 2 : 0) | (vector_store ? 4 : 0) |
                 (k_major(sa[1], sa[2]) ? 8 : 0) | (k_major(sb[2], sb[1]) ? 16 : 0) |
                 (workspace_vectors ? 32 : 0));
  meta.push_back(splits);
  meta.push_back(chunk);
  meta.push_back(through_workspace ? int64_t(address_of(workspace)) : 0);
  int64_t lanes = reduce_lanes(dev, batches * M * N, splits);
  meta.push_back(lanes);
  // q128 and qt128 (the phases kernels): six clock stamps a workgroup, word 28.
  bool stamps_out = &tile == &kPhases || &tile == &kTiledPhases;
  at::Tensor stamps;
  if (stamps_out) {
    stamps = at::empty({tiles * splits, 6}, out.options().dtype(at::kLong));
    accesses.push_back(span_of(stamps, true));
    std::lock_guard<std::mutex> lock(tier_mutex);
    last_stamps() = stamps;
  }
  meta.push_back(stamps_out ? int64_t(address_of(stamps)) : 0);
  uint64_t groups = static_cast<uint64_t>(tiles * splits);
  if (!through_workspace) {
    launch(kernel, groups * kernel.workgroup_size, accesses);
    return;
  }
  rt::Access partial_write = span_of(workspace, true), partial_read = span_of(workspace, false);
  std::vector<rt::Access> first = {accesses[0], accesses[1], partial_write};
  if (stamps_out) first.push_back(accesses.back());
  launch(kernel, groups * kernel.workgroup_size, first);
  if (sums_are_out) return;
  std::vector<rt::Access> second = {partial_read, span_of(out, true)};
  if (bias.defined()) second.push_back(span_of(bias, false));
  reduce_sums(dev, out, workspace, batches * M * N, lanes, &args, meta, second);
}

}  // namespace

std::map<std::string, int64_t> gemm_tier_counts() {
  std::lock_guard<std::mutex> lock(tier_mutex);
  return tier_counts;
}

at::Tensor gemm_phase_stamps() {
  std::lock_guard<std::mutex> lock(tier_mutex);
  return last_stamps();
}

void gemm(const at::Tensor& a, const at::Tensor& b, const at::Tensor& out, const at::Tensor& bias,
          const c10::Scalar& alpha, const c10::Scalar& beta, Epilogue epilogue) {
  if (out.numel() == 0) return;
  if (a.scalar_type() != out.scalar_type()) {
    c10::ScalarType ta = a.scalar_type(), tb = b.scalar_type(), tout = out.scalar_type();
    TORCH_INTERNAL_ASSERT(
        (tout == c10::kFloat && tb == ta && (ta == c10::kHalf || ta == c10::kBFloat16)) ||
        (tout == c10::kInt && tb == c10::kChar && (ta == c10::kChar || ta == c10::kByte)));
    launch_gemm(a, b, out, bias, alpha, beta, epilogue, a.scalar_type());
    return;
  }
  auto precision = at::globalContext().float32MatmulPrecision();
  if (out.scalar_type() == c10::kFloat && a.size(-1) > 0 &&
      bf16_route(device_for(out), precision)) {
    auto [a16, b16] = bf16_operands(a, b, precision == at::Float32MatmulPrecision::HIGH);
    launch_gemm(a16, b16, out, bias, alpha, beta, epilogue, c10::kBFloat16);
    return;
  }
  launch_gemm(a, b, out, bias, alpha, beta, epilogue, out.scalar_type());
}

}  // namespace torchvulkan
