// nonzero in three passes over blocks of 4 elements per invocation:
//   count: counts[b] = number of nonzero elements of block b
//   scan:  offsets[b] = counts[0] + ... + counts[b - 1], offsets[nblocks] = total (one workgroup)
//   write: each nonzero element's coordinates go to row offsets[b] + its rank
//          in block b, rows below `rows` only
// nonzero reads the total back to size its output; nonzero_static writes
// its first `rows` into an output filled beforehand, with no read-back.
layout(push_constant) uniform NonzeroArgs {
  uint64_t meta;     // the input's sizes (int64[ndim]), for the coordinates
  uint64_t x;        // contiguous input (X), or unused by scan
  uint64_t counts;   // int32[nblocks]
  uint64_t offsets;  // int64[nblocks + 1]
  uint64_t result;   // int64[total, ndim]
  uint64_t numel;
  uint64_t nblocks;
  uint64_t rows;     // write: the output's rows
  uint ndim;
} nz;

layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Sizes { int64_t v[]; };

layout(constant_id = 0) const uint kWorkgroupSize = 256;
shared int64_t scratch[kWorkgroupSize];

// Exclusive prefix sum of `value` across the workgroup; every invocation calls it.
int64_t workgroup_exclusive_scan(int64_t value, out int64_t total) {
  uint t = gl_LocalInvocationID.x;
  scratch[t] = value;
  barrier();
  for (uint s = 1; s < kWorkgroupSize; s <<= 1) {
    int64_t other = t >= s ? scratch[t - s] : int64_t(0);
    barrier();
    scratch[t] += other;
    barrier();
  }
  total = scratch[kWorkgroupSize - 1];
  return scratch[t] - value;
}

#ifndef OP_scan
#if defined(X_DT_B8)
bool nonzero(uint64_t i) { return X_load(nz.x + i * X_BYTES); }
#else
bool nonzero(uint64_t i) { return X_load(nz.x + i * X_BYTES) != X_T(0); }
#endif
#endif

void main() {
  uint64_t block = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (block >= nz.nblocks) return;  // whole workgroups only
  uint t = gl_LocalInvocationID.x;
#ifdef OP_scan
  // One workgroup: invocation t sums a run of blocks, then the runs are scanned.
  uint64_t run = (nz.nblocks + kWorkgroupSize - 1) / kWorkgroupSize;
  uint64_t begin = min(nz.nblocks, uint64_t(t) * run), end = min(nz.nblocks, begin + run);
  int64_t sum = 0;
  for (uint64_t b = begin; b < end; ++b) sum += RefI32(nz.counts + b * 4).v;
  int64_t total;
  int64_t offset = workgroup_exclusive_scan(sum, total);
  for (uint64_t b = begin; b < end; ++b) {
    RefI64(nz.offsets + b * 8).v = offset;
    offset += RefI32(nz.counts + b * 4).v;
  }
  if (t == 0) RefI64(nz.offsets + nz.nblocks * 8).v = total;
#else
  uint64_t first = (block * kWorkgroupSize + t) * 4;
  int count = 0;
  for (uint k = 0; k < 4; ++k) {
    if (first + k < nz.numel && nonzero(first + k)) ++count;
  }
#ifdef OP_count
  int64_t total;
  workgroup_exclusive_scan(int64_t(count), total);
  if (t == 0) RefI32(nz.counts + block * 4).v = int(total);
#else
  int64_t unused;
  int64_t row = RefI64(nz.offsets + block * 8).v + workgroup_exclusive_scan(int64_t(count), unused);
  Sizes sizes = Sizes(nz.meta);
  for (uint k = 0; k < 4; ++k) {
    uint64_t i = first + k;
    if (i >= nz.numel || !nonzero(i)) continue;
    if (uint64_t(row) >= nz.rows) break;
    int64_t rest = int64_t(i);
    for (int d = int(nz.ndim) - 1; d >= 0; --d) {
      int64_t size = sizes.v[d];
      RefI64(nz.result + uint64_t(row * nz.ndim + d) * 8).v = rest % size;
      rest /= size;
    }
    ++row;
  }
#endif
#endif
}
