// Shape ops: cat (one launch for contiguous inputs of the output's dtype,
// shaders/index/cat.comp; otherwise one copy per input into its slice of the
// output, which also converts dtypes), tril/triu, roll (ATen's formula: cat of two slices),
// channel_shuffle (a transposed view, copied), narrow_copy's out= form, the unfold view that
// repeat needs and unfold's gradient.
#include <ATen/MemoryOverlap.h>
#include <ATen/native/Resize.h>
#include <ATen/native/TensorShape.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/cat_meta.h>
#include <ATen/ops/tril_meta.h>
#include <ATen/ops/triu_meta.h>
#include <ATen/ops/unfold_native.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/ops/index/kernels.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

// Mirror shaders/index/cat.comp.
struct CatPart {
  uint64_t src;
  uint32_t start, row_units, col, pad;
};
struct CatArgs {
  uint64_t parts, out;
  uint32_t count, total, out_row_units;
};

// The one-launch cat, when every input to copy (at most kMaxInputs) is
// contiguous and of out's dtype and the unit counts fit 32 bits; false (nothing launched)
// otherwise.
bool cat_in_one_launch(const at::ITensorListRef& tensors, int64_t dim, const at::Tensor& out) {
  if (!out.is_contiguous() || out.numel() == 0) return false;
  // Rows: the dims before `dim`; an input's row is its [dim:] block.
  int64_t outer = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= out.size(d);
  uint64_t elem = out.element_size();
  uint64_t out_row = static_cast<uint64_t>(out.numel() / outer) * elem;  // bytes
  std::vector<const at::Tensor*> inputs;
  uint64_t align = out_row | address_of(out);
  uint64_t col = 0;
  for (const at::Tensor& t : tensors) {
    if (at::native::cat_should_skip_tensor(t) || t.numel() == 0) continue;
    if (!t.is_contiguous() || t.scalar_type() != out.scalar_type()) return false;
    if (at::get_overlap_status(t, out) != at::MemOverlapStatus::No) return false;
    inputs.push_back(&t);
    align |= address_of(t) | col;
    col += static_cast<uint64_t>(t.numel() / outer) * elem;
  }
  // Each unit finds its input by a linear scan of the table: a few dozen at most.
  constexpr size_t kMaxInputs = 64;
  if (inputs.empty() || inputs.size() > kMaxInputs ||
      static_cast<uint64_t>(out.nbytes()) >= INT32_MAX)
    return false;
  // The widest unit that divides every row, column offset and address.
  uint64_t width = 16;
  while (align % width != 0) width /= 2;
  std::vector<CatPart> parts;
  std::vector<rt::Access> accesses = {span_of(out, true)};
  uint64_t start = 0;
  col = 0;
  for (const at::Tensor* t : inputs) {
    uint64_t row = static_cast<uint64_t>(t->numel() / outer) * elem / width;
    parts.push_back({address_of(*t), static_cast<uint32_t>(start), static_cast<uint32_t>(row),
                     static_cast<uint32_t>(col), 0});
    accesses.push_back(span_of(*t, false));
    start += row * outer;
    col += row;
  }
  CatArgs args{0, address_of(out), static_cast<uint32_t>(parts.size()),
               static_cast<uint32_t>(start), static_cast<uint32_t>(out_row / width)};
  rt::Device& dev = device_for(out);
  const rt::Kernel& kernel = dev.pipelines().get("cat." + std::to_string(width));
  constexpr uint64_t kSteps = 4;  // units per invocation, as in the shader
  auto table_bytes = static_cast<uint32_t>(parts.size() * sizeof(CatPart));
  uint64_t invocations = (start + kSteps - 1) / kSteps;
  dev.stream().dispatch(kernel, &args, sizeof(args), parts.data(), table_bytes, invocations,
                        accesses);
  return true;
}

void cat_into(const at::ITensorListRef& tensors, int64_t dim, const at::Tensor& out) {
  if (cat_in_one_launch(tensors, dim, out)) return;
  int64_t offset = 0;
  for (const at::Tensor& t : tensors) {
    if (at::native::cat_should_skip_tensor(t)) continue;
    int64_t size = t.size(dim);
    if (size > 0) out.narrow(dim, offset, size).copy_(t);
    offset += size;
  }
}

at::Tensor cat(const at::ITensorListRef& tensors, int64_t dim) {
  Functional<m::structured_cat> op;
  auto info = op.meta(tensors, dim);
  cat_into(tensors, info.dim, op.outputs_[0]);
  return op.outputs_[0];
}

at::Tensor& cat_out(const at::ITensorListRef& tensors, int64_t dim, at::Tensor& out) {
  Out<m::structured_cat> op(out);
  auto info = op.meta(tensors, dim);
  cat_into(tensors, info.dim, out);
  return out;
}

// out = self where the diagonal offset col - row passes the test, else 0.
void triangle(const char* op, const at::Tensor& self, int64_t k, const at::Tensor& out) {
  if (out.numel() == 0) return;
  int64_t rows = self.size(-2), cols = self.size(-1);
  auto options = self.options().dtype(at::kLong);
  auto iter = index::config()
                  .add_output(out)
                  .add_const_input(self)
                  .add_owned_const_input(at::arange(rows, options).view({rows, 1}))
                  .add_owned_const_input(at::arange(cols, options))
                  .resize_outputs(false)
                  .build();
  launch_elementwise(std::string("tri.") + op + "." + dtype_name(out.scalar_type()), iter,
                     {static_cast<uint64_t>(k)});
}

at::Tensor& tril_out(const at::Tensor& self, int64_t k, at::Tensor& out) {
  Out<m::structured_tril> op(out);
  op.meta(self, k);
  triangle("tril", self, k, out);
  return out;
}

at::Tensor& triu_out(const at::Tensor& self, int64_t k, at::Tensor& out) {
  Out<m::structured_triu> op(out);
  op.meta(self, k);
  triangle("triu", self, k, out);
  return out;
}

at::Tensor roll(const at::Tensor& self, at::IntArrayRef shifts, at::IntArrayRef dims) {
  TORCH_CHECK(!shifts.empty(), "`shifts` required");
  if (dims.empty() && shifts.size() == 1) {
    return torchvulkan::roll(self.flatten(), shifts, {0}).view(self.sizes());
  }
  TORCH_CHECK(shifts.size() == dims.size(),
              "shifts and dimensions must align. shifts: ", shifts.size(), ", dims:", dims.size());
  if (dims.size() > 1) {
    at::Tensor first = torchvulkan::roll(self, shifts[0], dims[0]);
    return torchvulkan::roll(first, shifts.slice(1), dims.slice(1));
  }
  int64_t dim = c10::maybe_wrap_dim(dims[0], self.dim());
  int64_t size = self.size(dim);
  if (self.numel() == 0 || size == 0) return self.clone();
  int64_t start = (size - shifts[0]) % size;
  if (start < 0) start += size;
  return at::cat({self.narrow(dim, start, size - start), self.narrow(dim, 0, start)}, dim);
}

// [N, C, ...] with the channels as [groups, C / groups] read transposed: the
// CPU's checks, then one copy.
at::Tensor channel_shuffle(const at::Tensor& self, int64_t groups) {
  TORCH_CHECK(
      self.dim() > 2,
      "channel_shuffle expects input to have at least 3 dimensions, but got input with sizes ",
      self.sizes());
  TORCH_CHECK(groups > 0, "Number of groups to divide channels in must be positive.",
              " Value of groups:", groups);
  TORCH_CHECK(self.size(1) % groups == 0, "Number of channels must be divisible by groups. Got ",
              self.size(1), " channels and ", groups, " groups.");
  std::vector<int64_t> split = {self.size(0), groups, self.size(1) / groups};
  split.insert(split.end(), self.sizes().begin() + 2, self.sizes().end());
  return self.reshape(split)
      .transpose(1, 2)
      .contiguous()
      .view(self.sizes())
      .contiguous(self.suggest_memory_format());
}

// narrow_copy.out: the narrowed slice copied into `output`. The CPU's out
// form copies raw memory (ATen has none for other devices); its checks are
// repeated, as some differ from narrow's (a negative length runs past the end).
at::Tensor& narrow_copy_out(const at::Tensor& self, int64_t dim, int64_t start, int64_t length,
                            at::Tensor& output) {
  TORCH_CHECK(self.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  TORCH_CHECK(self.dtype() == output.dtype());
  dim = dim < 0 ? c10::maybe_wrap_dim(dim, self.dim()) : dim;
  TORCH_CHECK(dim < self.dim());
  int64_t size = self.size(dim);
  TORCH_CHECK_INDEX(-size <= start && start <= size,
                    "start out of range (expected to be in range of [", -size, ", ", size,
                    "], but got ", start, ")");
  if (start < 0) start += size;
  TORCH_CHECK(length >= 0 && start <= size - length, "start (", start, ") + length (", length,
              ") exceeds dimension size (", size, ").");
  at::Tensor slice = self.narrow(dim, start, length);
  at::native::resize_output(output, slice.sizes());
  return output.copy_(slice);
}

// The gradient of x.unfold(dim, size, step), whose window i, offset k (the
// last dim) is x's element i * step + k along dim: offset k's slice of
// `grad` added at positions k, k + step, ... of dim, one strided add per
// offset (windows overlap where step < size).
at::Tensor unfold_backward(const at::Tensor& grad, c10::SymIntArrayRef input_sizes, int64_t dim,
                           int64_t size, int64_t step) {
  std::vector<int64_t> sizes = C10_AS_INTARRAYREF_SLOW(input_sizes).vec();
  if (sizes.empty()) return grad.sum(-1);  // a 0-dim x: size is 0 or 1
  int64_t d = c10::maybe_wrap_dim(dim, static_cast<int64_t>(sizes.size()));
  at::Tensor out = at::zeros(sizes, grad.options());
  std::vector<int64_t> window_sizes = sizes, window_strides = out.strides().vec();
  window_sizes[d] = grad.size(d);
  window_strides[d] *= step;
  for (int64_t k = 0; k < size; ++k)
    out.as_strided(window_sizes, window_strides, k * out.stride(d)).add_(grad.select(-1, k));
  return out;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("cat", cat);
  m.impl("cat.out", cat_out);
  m.impl("tril.out", tril_out);
  m.impl("triu.out", triu_out);
  m.impl("roll", roll);
  m.impl("channel_shuffle", channel_shuffle);
  m.impl("narrow_copy.out", narrow_copy_out);
  m.impl("unfold", at::native::unfold);
  m.impl("unfold_backward", unfold_backward);
}

}  // namespace torchvulkan
