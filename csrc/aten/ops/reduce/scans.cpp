// Scans along a dim, one launch each (two for few long rows; see
// shaders/reduce/scan.comp): cumsum
// and cumprod through ATen's structured kernels (which check the dim, pick
// the dtype and treat 0-dim and empty inputs) and their DispatchStubs;
// cummax / cummin through the helpers ATen's cummax and cummin call with
// shaped outputs; logcumsumexp through _logcumsumexp.
#include <ATen/native/DispatchStub.h>
#include <ATen/native/ReduceOps.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/cumprod_native.h>
#include <ATen/ops/cumsum_native.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <torch/library.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

struct Args {
  uint64_t meta, source, target, indices, partials, blocks, block_length;
  uint32_t mode;
};

// Elements per chunk of a workgroup in scan.comp (kPerThread invocations' worth).
constexpr int64_t kPerThread = 4;

// out (and indices, for cummax/cummin) = the scan `op` of self along `dim`;
// self has out's dtype and every tensor self's sizes.
void scan(const char* op, const at::Tensor& self, int64_t dim, const at::Tensor& out,
          const at::Tensor& indices = {}) {
  int64_t ndim = self.dim();
  dim = c10::maybe_wrap_dim(dim, ndim);
  if (self.numel() == 0) return;
  auto bytes = [](const at::Tensor& t, int64_t d) {
    return t.defined() && t.dim() > 0 ? t.stride(d) * static_cast<int64_t>(t.element_size()) : 0;
  };
  // The rows: every other dim, innermost first, merged where all three
  // tensors are contiguous across them. Each entry: size, then the strides.
  std::vector<std::array<int64_t, 4>> kept;
  for (int64_t d = ndim - 1; d >= 0; --d) {
    if (d == dim || self.size(d) == 1) continue;
    std::array<int64_t, 4> next{self.size(d), bytes(self, d), bytes(out, d), bytes(indices, d)};
    if (!kept.empty()) {
      std::array<int64_t, 4>& last = kept.back();
      bool merge = true;
      for (int i = 1; i < 4; ++i) merge = merge && last[i] * last[0] == next[i];
      if (merge) {
        last[0] *= next[0];
        continue;
      }
    }
    kept.push_back(next);
  }
  int64_t rows = 1;
  for (const auto& k : kept) rows *= k[0];
  int64_t length = ndim > 0 ? self.size(dim) : 1;
  std::vector<int64_t> meta = {rows,
                               length,
                               static_cast<int64_t>(kept.size()),
                               bytes(self, dim),
                               bytes(out, dim),
                               bytes(indices, dim)};
  for (int i = 0; i < 4; ++i) {
    for (const auto& k : kept) meta.push_back(k[i]);
  }

  rt::Device& dev = device_for(out);
  const rt::Kernel& kernel =
      dev.pipelines().get(std::string("scan.") + op + "." + dtype_name(self.scalar_type()));
  // One invocation walks a row when rows are short, or when rows are many
  // and adjacent in memory (a scan along an outer dim: neighbouring
  // invocations load neighbouring elements); otherwise a workgroup scans each
  // row in chunks, and few long rows split into blocks that fill ~1024
  // workgroups, blocks of at least four chunks.
  bool adjacent_rows = !kept.empty() && kept[0][1] < bytes(self, dim);
  bool per_thread = length <= 16 || (rows >= 65536 && adjacent_rows);
  int64_t wg = kernel.workgroup_size, width = kPerThread * wg;
  int64_t blocks = per_thread ? 1
                              : std::min((length + 4 * width - 1) / (4 * width),
                                         std::max<int64_t>(1, 1024 / rows));
  int64_t block_length = blocks > 1 ? (length + blocks - 1) / blocks : length;
  if (blocks > 1) {
    block_length = (block_length + width - 1) / width * width;
    blocks = (length + block_length - 1) / block_length;
  }
  Args args{0,
            address_of(self),
            address_of(out),
            address_of(indices),
            0,
            static_cast<uint64_t>(blocks),
            static_cast<uint64_t>(block_length),
            per_thread ? 1u : 0u};
  uint32_t meta_bytes = static_cast<uint32_t>(meta.size() * sizeof(int64_t));
  std::vector<rt::Access> accesses = {span_of(self, false), span_of(out, true)};
  if (indices.defined()) accesses.push_back(span_of(indices, true));
  uint64_t invocations = static_cast<uint64_t>(rows) * (per_thread ? 1 : blocks * wg);
  if (blocks == 1) {
    dev.stream().dispatch(kernel, &args, sizeof(args), meta.data(), meta_bytes, invocations,
                          accesses);
    return;
  }
  at::Tensor partials = at::empty({rows * blocks * 2}, self.options().dtype(at::kLong));
  args.partials = address_of(partials);
  args.mode = 2;
  rt::Access totals[] = {span_of(self, false), span_of(partials, true)};
  dev.stream().dispatch(kernel, &args, sizeof(args), meta.data(), meta_bytes, invocations, totals);
  args.mode = 3;
  accesses.push_back(span_of(partials, false));
  dev.stream().dispatch(kernel, &args, sizeof(args), meta.data(), meta_bytes, invocations,
                        accesses);
}

void cumsum_kernel(const at::Tensor& result, const at::Tensor& self, int64_t dim) {
  scan("cumsum", self, dim, result);
}
void cumprod_kernel(const at::Tensor& result, const at::Tensor& self, int64_t dim) {
  scan("cumprod", self, dim, result);
}

// The functional, in-place and out= forms of ATen's structured cumsum / cumprod.
#define CUMULATIVE_FORMS(name)                                                                 \
  at::Tensor name(const at::Tensor& self, int64_t dim, std::optional<c10::ScalarType> dtype) { \
    Functional<at::native::structured_##name##_out> op;                                        \
    op.meta(self, dim, dtype);                                                                 \
    op.impl(self, dim, dtype, op.outputs_[0]);                                                 \
    return op.outputs_[0];                                                                     \
  }                                                                                            \
  at::Tensor& name##_(at::Tensor& self, int64_t dim, std::optional<c10::ScalarType> dtype) {   \
    InPlace<at::native::structured_##name##_out> op(self);                                     \
    op.meta(self, dim, dtype);                                                                 \
    op.impl(self, dim, dtype, self);                                                           \
    return self;                                                                               \
  }                                                                                            \
  at::Tensor& name##_out(const at::Tensor& self, int64_t dim,                                  \
                         std::optional<c10::ScalarType> dtype, at::Tensor& out) {              \
    Out<at::native::structured_##name##_out> op(out);                                          \
    op.meta(self, dim, dtype);                                                                 \
    op.impl(self, dim, dtype, out);                                                            \
    return out;                                                                                \
  }

CUMULATIVE_FORMS(cumsum)
CUMULATIVE_FORMS(cumprod)

void cummax_helper(const at::Tensor& self, at::Tensor& values, at::Tensor& indices, int64_t dim) {
  scan("cummax", self, dim, values, indices);
}
void cummin_helper(const at::Tensor& self, at::Tensor& values, at::Tensor& indices, int64_t dim) {
  scan("cummin", self, dim, values, indices);
}

at::Tensor& logcumsumexp_out(const at::Tensor& self, int64_t dim, at::Tensor& out) {
  TORCH_CHECK(at::isFloatingType(self.scalar_type()), "\"logcumsumexp\" not implemented for '",
              self.scalar_type(), "'");
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "logcumsumexp: expected out of dtype ",
              self.scalar_type(), ", got ", out.scalar_type());
  at::native::resize_output(out, self.sizes());
  scan("logcumsumexp", self, dim, out);
  return out;
}
at::Tensor logcumsumexp(const at::Tensor& self, int64_t dim) {
  at::Tensor out = at::empty_like(self, at::MemoryFormat::Contiguous);
  return logcumsumexp_out(self, dim, out);
}

}  // namespace
}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(cumsum_stub, &torchvulkan::cumsum_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(cumprod_stub, &torchvulkan::cumprod_kernel)
}  // namespace at::native

namespace torchvulkan {

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  REGISTER_FORMS(cumsum)
  REGISTER_FORMS(cumprod)
  m.impl("_cummax_helper", cummax_helper);
  m.impl("_cummin_helper", cummin_helper);
  m.impl("_logcumsumexp", logcumsumexp);
  m.impl("_logcumsumexp.out", logcumsumexp_out);
}

}  // namespace torchvulkan
