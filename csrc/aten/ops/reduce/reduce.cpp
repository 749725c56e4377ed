// One launch (two for long reductions with few outputs) per reduction, for
// any set of dims: see shaders/reduce/reduce.comp for the strategies, which
// shaders/reduce/welford.comp shares.
#include "aten/ops/reduce/reduce.h"

#include <ATen/WrapDimUtilsMulti.h>
#include <ATen/ops/empty.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <string>
#include <vector>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan {
namespace {

struct Dim {
  int64_t size, in_stride, out_stride;
  int64_t second_stride = 0;  // a second output's (var_mean's mean)
};

// Merges dims that are contiguous with their successor in every stride.
std::vector<Dim> coalesce(std::vector<Dim> dims) {
  std::vector<Dim> out;
  for (const Dim& d : dims) {
    if (!out.empty() && out.back().in_stride * out.back().size == d.in_stride &&
        out.back().out_stride * out.back().size == d.out_stride &&
        out.back().second_stride * out.back().size == d.second_stride) {
      out.back().size *= d.size;
    } else {
      out.push_back(d);
    }
  }
  return out;
}

// The layout words of kept and reduced dims given innermost first; with
// `second`, the second output's kept strides follow them.
ReduceLayout make_layout(std::vector<Dim> kept, std::vector<Dim> red, bool sort_reduced,
                         int64_t parts, bool second = false) {
  if (sort_reduced) {
    std::stable_sort(red.begin(), red.end(),
                     [](const Dim& a, const Dim& b) { return a.in_stride < b.in_stride; });
  }
  kept = coalesce(kept);
  red = coalesce(red);

  ReduceLayout layout;
  for (const Dim& d : kept) layout.outputs *= d.size;
  for (const Dim& d : red) layout.reduce_size *= d.size;
  layout.has_kept = !kept.empty();
  layout.has_reduced = !red.empty();
  layout.kept_stride = kept.empty() ? 0 : kept[0].in_stride;
  layout.reduced_stride = red.empty() ? 0 : red[0].in_stride;
  layout.kept_size = kept.empty() ? 1 : kept[0].size;
  layout.n_reduced = static_cast<int64_t>(red.size());
  for (const Dim& d : red) layout.reduced_strides_16 &= d.in_stride % 16 == 0;
  layout.meta = {layout.outputs, layout.reduce_size, parts, static_cast<int64_t>(kept.size()),
                 static_cast<int64_t>(red.size())};
  for (const Dim& d : kept) layout.meta.push_back(d.size);
  for (const Dim& d : kept) layout.meta.push_back(d.in_stride);
  for (const Dim& d : kept) layout.meta.push_back(d.out_stride);
  for (const Dim& d : red) layout.meta.push_back(d.size);
  for (const Dim& d : red) layout.meta.push_back(d.in_stride);
  if (second) {
    for (const Dim& d : kept) layout.meta.push_back(d.second_stride);
  }
  return layout;
}

// A reduction TensorIterator's dims (innermost first already): reduced where
// the output does not move. Outputs come first, the input last.
ReduceLayout iter_layout(const at::TensorIteratorBase& iter, bool second) {
  std::vector<Dim> kept, red;
  int input = iter.ntensors() - 1;
  for (int d = 0; d < iter.ndim(); ++d) {
    if (iter.shape()[d] == 1) continue;
    Dim dim{iter.shape()[d], iter.strides(input)[d], iter.strides(0)[d],
            second ? iter.strides(1)[d] : 0};
    (dim.out_stride == 0 ? red : kept).push_back(dim);
  }
  return make_layout(kept, red, true, 1, second);
}

// Mirrors the push constants of reduce.comp and welford.comp.
struct Args {
  uint64_t meta, source, target, second, scalar;
  uint32_t mode, stage, threads;
};

// The strategies (Args::mode) of reduce.comp; welford.comp has the general two.
enum Mode : uint32_t { kGeneral = 0, kGeneralOuter = 1, kRows = 2, kColumns = 3 };

// About the invocations an H200 keeps resident (132 SMs x 2048): enough
// parts that a long reduction fills the GPU.
constexpr int64_t kResidentInvocations = 1 << 18;

// Columns mode: the fewest reduced steps a part takes. The partials' round
// trip and the second launch cost more than the parallelism they buy on
// short reductions: the MNIST benchmark's bias gradient (sum over 128 rows
// of [128, 393216] float16) ran at 1,958 GB/s in one part against 1,722,
// 1,437, 1,494, 1,324 and 1,085 in 2, 3, 4, 6 (the former rule, 16 steps a
// part) and 12 (H100, ops.py, cuda 2,452; docs/measurements.md).
constexpr int64_t kColumnStepsPerPart = 128;
// Columns mode: the fewest reduced steps an invocation sharing an output
// group takes (four rounds of four loads in flight). With one invocation a
// group of 8 float16 outputs, the bias gradient above at h = 131072 ran as
// 16,385 invocations, about 4 warps an SM, each walking all 128 rows: the
// MNIST step's float16 sums took 75 us by GPU timestamps (this one and the
// [128, 10] one, about 8), CUDA's sum of it 21 (H100, 2026-12-07,
// benchmark/step_kernels.py and op_profile.py). Shared 8 ways (31 warps an
// SM) both took 43 us, and 76 at h = 393216 against 92 (H100, 2026-12-07,
// step_kernels.py).
constexpr int64_t kColumnStepsPerShare = 16;

c10::ScalarType accumulator(c10::ScalarType type) {
  if (type == c10::kDouble || type == c10::kLong) return type;
  if (c10::isFloatingType(type)) return c10::kFloat;
  return c10::kInt;  // narrow ints accumulate in int; bools live in 4-byte words
}

uint64_t acc_bits(c10::ScalarType type, double value) {
  if (type == c10::kDouble) return std::bit_cast<uint64_t>(value);
  return std::bit_cast<uint32_t>(static_cast<float>(value));
}

// One reduction: the kernel's variant, the operands and what the partials of
// a split reduction hold (`partial_words` values of `partial_type` each).
struct Launch {
  std::string kernel;
  const at::TensorBase& input;
  const void* source;
  const at::TensorBase& out;
  void* target;
  const at::TensorBase* second = nullptr;
  void* second_target = nullptr;
  uint64_t scalar = 0;
  c10::ScalarType partial_type;
  int64_t partial_words = 1;
  bool vectorized = true;  // reduce.comp's modes 2 and 3 may be chosen
};

int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

int64_t next_power_of_two(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

void launch(ReduceLayout& layout, const Launch& l) {
  int64_t outputs = layout.outputs, reduce_size = layout.reduce_size;
  if (outputs == 0) return;
  rt::Device& dev = device_for(l.out);
  const rt::Kernel& kernel = dev.pipelines().get(l.kernel);
  int64_t wg = kernel.workgroup_size;
  int64_t width = l.input.element_size();
  int64_t vec = std::max<int64_t>(4, 16 / width);  // VEC of the variant (shaders/compile.py)

  // Consecutive outputs adjacent in memory: an invocation per output, or per
  // VEC outputs when they are contiguous and each reduced step keeps their
  // 16-byte alignment.
  bool outer = layout.has_kept &&
               (!layout.has_reduced || layout.kept_stride < layout.reduced_stride) &&
               outputs >= 4 * wg;
  Mode mode = outer ? kGeneralOuter : kGeneral;
  if (l.vectorized && layout.has_reduced && layout.n_reduced == 1 &&
      layout.reduced_stride == width) {
    mode = kRows;
  } else if (l.vectorized && outer && layout.kept_stride == width && layout.reduced_strides_16) {
    mode = kColumns;
  }

  // Long reductions split into parts whose partials a second launch reduces.
  int64_t parts = 1, invocations = 0, threads = wg;
  switch (mode) {
    case kGeneral:  // ~1024 workgroups in all
      parts = std::clamp<int64_t>(ceil_div(reduce_size, wg * 8), 1,
                                  std::max<int64_t>(1, 1024 / outputs));
      invocations = outputs * parts * wg;
      break;
    case kGeneralOuter:  // ~2M invocations: each one's loop is a dependent chain
      parts = std::clamp<int64_t>(ceil_div(2048 * 1024, outputs), 1,
                                  std::max<int64_t>(1, reduce_size / 32));
      invocations = outputs * parts;
      break;
    case kRows: {
      // Each invocation takes at least 16 vectors (four unrolled steps); a
      // short row gets fewer invocations, several rows a workgroup.
      int64_t vectors = ceil_div(reduce_size, vec);
      parts = std::clamp<int64_t>(vectors / (wg * 16), 1,
                                  std::max<int64_t>(1, kResidentInvocations / wg / outputs));
      threads = parts > 1 ? wg : std::min(wg, next_power_of_two(ceil_div(vectors, 4)));
      invocations = ceil_div(outputs, wg / threads) * parts * wg;
      break;
    }
    case kColumns: {
      // First a few invocations of a workgroup share each output group's
      // steps (at least kColumnStepsPerShare each, and 32 groups a share so
      // that a warp's loads stay 512 contiguous bytes) until about
      // kResidentInvocations are busy; then parts of at least
      // kColumnStepsPerPart steps each, at most 512 partials per output,
      // which stage 1 reads one invocation per output.
      int64_t groups = outputs / layout.kept_size * (1 + (layout.kept_size + vec - 2) / vec);
      threads = 1;
      while (threads * 2 * 32 <= wg && groups * threads * 2 <= kResidentInvocations &&
             reduce_size / (threads * 2) >= kColumnStepsPerShare)
        threads *= 2;
      parts = std::clamp<int64_t>(
          ceil_div(kResidentInvocations, groups * threads), 1,
          std::clamp<int64_t>(reduce_size / threads / kColumnStepsPerPart, 1, 512));
      invocations = ceil_div(groups, wg / threads) * parts * wg;
      break;
    }
  }
  layout.meta[2] = parts;
  std::vector<int64_t>& meta = layout.meta;
  uint32_t meta_bytes = static_cast<uint32_t>(meta.size() * sizeof(int64_t));

  Args args{};
  args.source = reinterpret_cast<uint64_t>(l.source);
  args.target = reinterpret_cast<uint64_t>(l.target);
  args.second = reinterpret_cast<uint64_t>(l.second_target);
  args.scalar = l.scalar;
  args.mode = mode;
  args.threads = static_cast<uint32_t>(threads);
  std::vector<rt::Access> writes = {span_of(l.out, true)};
  if (l.second) writes.push_back(span_of(*l.second, true));
  if (parts == 1) {
    std::vector<rt::Access> accesses = writes;
    accesses.push_back(span_of(l.input, false));
    dev.stream().dispatch(kernel, &args, sizeof(args), meta.data(), meta_bytes,
                          static_cast<uint64_t>(invocations), accesses);
    return;
  }
  at::Tensor partials =
      at::empty({outputs * parts * l.partial_words}, l.out.options().dtype(l.partial_type));
  args.target = address_of(partials);
  args.second = 0;
  rt::Access first[] = {span_of(l.input, false), span_of(partials, true)};
  dev.stream().dispatch(kernel, &args, sizeof(args), meta.data(), meta_bytes,
                        static_cast<uint64_t>(invocations), first);
  // Stage 1: a workgroup per output, or (columns) an invocation per output.
  args.source = args.target;
  args.target = reinterpret_cast<uint64_t>(l.target);
  args.second = reinterpret_cast<uint64_t>(l.second_target);
  args.stage = 1;
  args.mode = mode == kColumns ? kColumns : kGeneral;
  std::vector<rt::Access> second = writes;
  second.push_back(span_of(partials, false));
  dev.stream().dispatch(kernel, &args, sizeof(args), meta.data(), meta_bytes,
                        static_cast<uint64_t>(mode == kColumns ? outputs : outputs * wg), second);
}

}  // namespace

ReduceLayout reduce_layout(const at::Tensor& input, at::OptionalIntArrayRef dims_opt,
                           const at::Tensor& out, bool sort_reduced, int64_t parts) {
  int64_t ndim = input.dim();
  std::vector<bool> reduced(ndim, dims_opt.value_or(at::IntArrayRef{}).empty());
  if (ndim > 0) {  // a 0-dim input "reduces" over dim 0 or -1 as a no-op
    for (int64_t d : dims_opt.value_or(at::IntArrayRef{}))
      reduced[c10::maybe_wrap_dim(d, ndim)] = true;
  }
  int64_t width = input.element_size(), out_width = out.element_size();

  // Output strides per input dim (0 for reduced dims), keepdim or not.
  std::vector<int64_t> out_strides(ndim, 0);
  bool keepdim = out.dim() == ndim;
  for (int64_t d = 0, o = 0; d < ndim; ++d) {
    if (keepdim) {
      out_strides[d] = reduced[d] ? 0 : out.stride(d) * out_width;
    } else if (!reduced[d]) {
      out_strides[d] = out.stride(o++) * out_width;
    }
  }
  std::vector<Dim> kept, red;
  for (int64_t d = ndim - 1; d >= 0; --d) {  // innermost first
    if (input.size(d) == 1) continue;
    Dim dim{input.size(d), input.stride(d) * width, out_strides[d]};
    (reduced[d] ? red : kept).push_back(dim);
  }
  return make_layout(kept, red, sort_reduced, parts);
}

void reduce(const at::Tensor& self, at::OptionalIntArrayRef dims_opt, const at::Tensor& out,
            std::string_view op) {
  bool logical = op == "any" || op == "all";
  // Any input dtype into int64 (count_nonzero) or uint64 (hash_tensor) words.
  bool counting = op == "count_nonzero" || op.starts_with("hash_xor");
  c10::ScalarType type = logical ? c10::kBool : counting ? self.scalar_type() : out.scalar_type();
  if (!counting && out.scalar_type() != type) {  // e.g. any() of uint8 gives uint8
    at::Tensor result = at::empty(out.sizes(), out.options().dtype(type));
    reduce(self, dims_opt, result, op);
    out.copy_(result);
    return;
  }
  at::Tensor input = self.scalar_type() == type ? self : self.to(type);
  ReduceLayout layout = reduce_layout(input, dims_opt, out, true);
  if (layout.reduce_size == 0 && op == "mean") {
    out.fill_(std::numeric_limits<double>::quiet_NaN());  // mean of nothing, as PyTorch
    return;
  }
  launch(layout, {.kernel = "reduce." + std::string(op) + "." + dtype_name(type),
                  .input = input,
                  .source = input.const_data_ptr(),
                  .out = out,
                  .target = out.data_ptr(),
                  .scalar = acc_bits(
                      type, 1.0 / static_cast<double>(std::max<int64_t>(layout.reduce_size, 1))),
                  .partial_type = counting ? c10::kLong : accumulator(type)});
}

void reduce(const at::TensorIteratorBase& iter, std::string_view op, double scalar) {
  ReduceLayout layout = iter_layout(iter, false);
  c10::ScalarType type = iter.dtype(0);
  // The kernel reads its input as the output's dtype (ATen casts real inputs
  // first); a complex input's norm would read its parts as values.
  TORCH_CHECK(iter.dtype(1) == type, "torchvulkan: ", op, " of a ", iter.dtype(1),
              " input has no Vulkan kernel yet");
  launch(layout, {.kernel = "reduce." + std::string(op) + "." + dtype_name(type),
                  .input = iter.tensor_base(1),
                  .source = iter.data_ptr(1),
                  .out = iter.tensor_base(0),
                  .target = iter.data_ptr(0),
                  .scalar = acc_bits(type, scalar),
                  .partial_type = accumulator(type)});
}

void welford(const at::TensorIteratorBase& iter, double correction, bool take_sqrt) {
  bool with_mean = iter.noutputs() == 2;
  ReduceLayout layout = iter_layout(iter, with_mean);
  c10::ScalarType type = iter.dtype(0);
  launch(layout,
         {.kernel = std::string(take_sqrt ? "welford.std." : "welford.var.") + dtype_name(type),
          .input = iter.tensor_base(iter.ntensors() - 1),
          .source = iter.data_ptr(iter.ntensors() - 1),
          .out = iter.tensor_base(0),
          .target = iter.data_ptr(0),
          .second = with_mean ? &iter.tensor_base(1) : nullptr,
          .second_target = with_mean ? iter.data_ptr(1) : nullptr,
          .scalar = acc_bits(type, correction),
          .partial_type = accumulator(type),
          .partial_words = 4,
          .vectorized = false});
}

}  // namespace torchvulkan
