// nonzero (three passes, see shaders/index/nonzero.comp; the count of
// nonzero elements is the one value read back), nonzero_static (the same
// passes into a filled output of fixed size: nothing read back), and masked_select /
// masked_scatter_ as a gather / scatter at the positions nonzero finds.
#include <ATen/ExpandUtils.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/index_put.h>
#include <ATen/ops/take.h>
#include <torch/library.h>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan {
namespace {

struct NonzeroArgs {
  uint64_t meta, x, counts, offsets, result, numel, nblocks, rows;
  uint32_t ndim, pad;
};

void run(rt::Device& dev, const std::string& name, NonzeroArgs& args,
         const std::vector<int64_t>& sizes, uint64_t groups,
         const std::vector<rt::Access>& accesses) {
  const rt::Kernel& kernel = dev.pipelines().get(name);
  dev.stream().dispatch(kernel, &args, sizeof(args), sizes.data(),
                        static_cast<uint32_t>(sizes.size() * 8), groups * kernel.workgroup_size,
                        accesses);
}

// The coordinates of x's nonzero elements, row-major, as the rows of
// `result` ([rows, ndim] contiguous) up to its `rows`; with `rows` unset,
// the total sizes `out` (read back) and every row is written.
void nonzero_rows(const at::Tensor& self, at::Tensor& out, std::optional<int64_t> rows) {
  at::Tensor x = self.contiguous();
  int64_t ndim = self.dim();
  if (x.numel() == 0) {
    if (!rows) at::native::resize_output(out, {0, ndim});
    return;
  }
  rt::Device& dev = device_for(x);
  uint64_t block = 4 * dev.pipelines().get("nonzero_scan.scan.i32").workgroup_size;
  uint64_t nblocks = (static_cast<uint64_t>(x.numel()) + block - 1) / block;
  at::Tensor counts = at::empty({static_cast<int64_t>(nblocks)}, x.options().dtype(at::kInt));
  at::Tensor offsets = at::empty({static_cast<int64_t>(nblocks) + 1}, x.options().dtype(at::kLong));
  // 0-dim inputs count as one element with no coordinates.
  std::vector<int64_t> sizes = self.sizes().vec();
  if (sizes.empty()) sizes.push_back(1);
  NonzeroArgs args{0,
                   address_of(x),
                   address_of(counts),
                   address_of(offsets),
                   0,
                   static_cast<uint64_t>(x.numel()),
                   nblocks,
                   0,
                   static_cast<uint32_t>(ndim),
                   0};
  std::string dtype = dtype_name(x.scalar_type());
  run(dev, "nonzero.count." + dtype, args, sizes, nblocks,
      {span_of(x, false), span_of(counts, true)});
  run(dev, "nonzero_scan.scan.i32", args, sizes, 1,
      {span_of(counts, false), span_of(offsets, true)});
  int64_t total = rows ? *rows : offsets[nblocks].item<int64_t>();
  if (!rows) at::native::resize_output(out, {total, ndim});
  if (total == 0 || ndim == 0) return;
  at::Tensor result = out.is_contiguous() ? out : out.contiguous();
  args.result = address_of(result);
  args.rows = static_cast<uint64_t>(total);
  run(dev, "nonzero.write." + dtype, args, sizes, nblocks,
      {span_of(x, false), span_of(offsets, false), span_of(result, true)});
  if (!result.is_same(out)) out.copy_(result);
}

at::Tensor& nonzero_out(const at::Tensor& self, at::Tensor& out) {
  TORCH_CHECK(out.scalar_type() == at::kLong,
              "nonzero: Expected out tensor to have scalar type Long but got ", out.scalar_type());
  nonzero_rows(self, out, std::nullopt);
  return out;
}

// nonzero_static: the first `size` rows of nonzero's, the rest fill_value.
at::Tensor& nonzero_static_out(const at::Tensor& self, int64_t size, int64_t fill_value,
                               at::Tensor& out) {
  TORCH_CHECK(size >= 0, "nonzero_static: 'size' must be an non-negative integer");
  TORCH_CHECK(out.scalar_type() == at::kLong,  // the CPU's message, word for word
              "nonzero_static: Expected out tensor to have scalar type Long but got scalar type",
              out.scalar_type());
  at::native::resize_output(out, {size, self.dim()});
  nonzero_rows(self, out.fill_(fill_value), size);
  return out;
}

at::Tensor nonzero_static(const at::Tensor& self, int64_t size, int64_t fill_value) {
  at::Tensor out = at::empty({0}, self.options().dtype(at::kLong));
  return nonzero_static_out(self, size, fill_value, out);
}

at::Tensor nonzero(const at::Tensor& self) {
  at::Tensor out = at::empty({0}, self.options().dtype(at::kLong));
  return nonzero_out(self, out);
}

// Positions of the true elements of `mask` in row-major order.
at::Tensor positions(const at::Tensor& mask) {
  return torchvulkan::nonzero(mask.reshape({-1})).view({-1});
}

at::Tensor masked_select(const at::Tensor& self, const at::Tensor& mask) {
  TORCH_CHECK(mask.scalar_type() == at::kBool, "masked_select: expected BoolTensor for mask");
  auto [values, where] = at::expand_outplace(self, mask);
  return at::take(*values, positions(*where));
}

at::Tensor& masked_select_out(const at::Tensor& self, const at::Tensor& mask, at::Tensor& out) {
  at::Tensor result = torchvulkan::masked_select(self, mask);
  at::native::resize_output(out, result.sizes());
  out.copy_(result);
  return out;
}

at::Tensor& masked_scatter_(at::Tensor& self, const at::Tensor& mask, const at::Tensor& source) {
  TORCH_CHECK(mask.scalar_type() == at::kBool,
              "masked_scatter_ only supports boolean masks, but got mask with dtype ",
              mask.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(),
              "masked_scatter: expected self and source to have same dtypes but got ",
              self.scalar_type(), " and ", source.scalar_type());
  at::Tensor where = positions(*at::expand_inplace(self, mask));
  int64_t count = where.numel();
  TORCH_CHECK(source.numel() >= count,
              "masked_scatter: expected source to have at least as many elements as ones in mask");
  if (count == 0) return self;
  at::Tensor flat = self.is_contiguous() ? self.view({-1}) : self.contiguous().view({-1});
  flat.index_put_({where}, source.reshape({-1}).narrow(0, 0, count));
  if (!flat.is_same(self) && flat.data_ptr() != self.data_ptr())
    self.copy_(flat.view(self.sizes()));
  return self;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("nonzero", nonzero);
  m.impl("nonzero.out", nonzero_out);
  m.impl("nonzero_static", nonzero_static);
  m.impl("nonzero_static.out", nonzero_static_out);
  m.impl("masked_select", masked_select);
  m.impl("masked_select.out", masked_select_out);
  m.impl("masked_scatter_", masked_scatter_);
}

}  // namespace torchvulkan
