#include "aten/launch.h"

#include <ATen/Dispatch_v2.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "aten/context.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

// Mirrors the push-constant block of shaders/common/strided.glsl.
struct Args {
  uint64_t meta;
  uint64_t numel;
  uint64_t ptr[4];
  uint64_t scalar[4];
  uint32_t ndim;
  uint32_t flags;
};
constexpr uint32_t kContiguous = 1u << 16;
constexpr uint32_t kIndex32 = 1u << 18;   // element indices and byte offsets fit in int32
constexpr uint32_t kInParams = 1u << 20;  // << op: the operand lives in the parameter block
constexpr uint32_t kVectorShift = 24;     // << log2 of the elements per vector step (0: none)
constexpr uint64_t kPerInvocation = 4;    // elements per shader invocation
static_assert(sizeof(Args) <= rt::Pipelines::kPushConstantBytes);

template <typename T>
uint64_t compute_bits(T v) {
  if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<uint64_t>(v);
  } else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, c10::Half> ||
                       std::is_same_v<T, c10::BFloat16>) {
    return std::bit_cast<uint32_t>(static_cast<float>(v));
  } else {
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  }
}

// The shaders' 32-bit division by `size` as a multiply and shift (Granlund and
// Montgomery): shift = ceil(log2 size), magic = 2^32 (2^shift - size) / size + 1,
// then n / size = (hi32(n * magic) + n) >> shift for every n < 2^31. Packed as
// magic | shift << 32. Only used when every index fits in 31 bits.
uint64_t divider(uint32_t size) {
  uint64_t shift = std::bit_width(size - 1);
  uint64_t magic = ((uint64_t(1) << 32) * ((uint64_t(1) << shift) - size)) / size + 1;
  return (magic & 0xFFFFFFFFu) | shift << 32;
}

}  // namespace

void launch_with_params(rt::Device& dev, const std::string& kernel,
                        const std::vector<int64_t>& params, uint64_t invocations,
                        const std::vector<rt::Access>& accesses) {
  if (invocations == 0) return;
  uint64_t push = 0;  // the stream writes the parameters' address here
  dev.stream().dispatch(dev.pipelines().get(kernel), &push, sizeof(push), params.data(),
                        static_cast<uint32_t>(params.size() * sizeof(int64_t)), invocations,
                        accesses);
}

uint64_t scalar_bits(const c10::Scalar& value, c10::ScalarType type) {
  uint64_t bits = 0;
  AT_DISPATCH_V2(type, "scalar_bits", AT_WRAP([&] { bits = compute_bits(value.to<scalar_t>()); }),
                 AT_EXPAND(AT_ALL_TYPES), c10::kBool, c10::kHalf, c10::kBFloat16);
  return bits;
}

bool inputs_uniform(const at::TensorIteratorBase& iter) {
  for (int i = iter.noutputs(); i < iter.ntensors(); ++i) {
    if (iter.is_cpu_scalar(i)) continue;  // converted when launched
    if (iter.dtype(i) != iter.common_dtype() || !iter.device(i).is_privateuseone()) return false;
  }
  return true;
}

bool pointwise(const at::TensorIteratorBase& iter, std::string_view family, std::string_view op,
               std::array<uint64_t, 4> scalars, bool bool_output) {
  c10::ScalarType input = iter.common_dtype();
  if (iter.dtype(0) != (bool_output ? c10::ScalarType::Bool : input)) return false;
  std::string name = std::string(family) + "." + std::string(op) + "." + dtype_name(input);
  launch_elementwise(name, iter, scalars);
  return true;
}

const char* dtype_name(c10::ScalarType type) {
  switch (type) {
    case c10::ScalarType::Bool:
      return "b8";
    case c10::ScalarType::Byte:
      return "u8";
    case c10::ScalarType::Char:
      return "i8";
    case c10::ScalarType::Short:
      return "i16";
    case c10::ScalarType::Int:
      return "i32";
    case c10::ScalarType::Long:
      return "i64";
    case c10::ScalarType::Half:
      return "f16";
    case c10::ScalarType::BFloat16:
      return "bf16";
    case c10::ScalarType::Float:
      return "f32";
    case c10::ScalarType::Double:
      return "f64";
    default:
      TORCH_CHECK(false, "torchvulkan: dtype ", type, " has no Vulkan kernels");
  }
}

void launch_elementwise(std::string_view kernel, const at::TensorIteratorBase& iter,
                        std::array<uint64_t, 4> scalars, const std::vector<rt::Access>& extra) {
  int64_t numel = iter.numel();
  if (numel == 0) return;
  int ntensors = iter.ntensors();
  TORCH_INTERNAL_ASSERT(ntensors <= 4, "torchvulkan: at most 4 operands per elementwise kernel");
  rt::Device& dev = device_for(iter.tensor_base(0));
  const rt::Kernel& pipeline = dev.pipelines().get(kernel);

  int ndim = iter.ndim();
  // sizes, dividers, then each operand's strides (shaders/common/strided.glsl)
  std::vector<int64_t> meta(static_cast<size_t>(ndim) * (2 + ntensors));
  Args args{};
  args.numel = static_cast<uint64_t>(numel);
  args.ndim = static_cast<uint32_t>(ndim);
  std::copy(scalars.begin(), scalars.end(), args.scalar);
  std::vector<rt::Access> accesses = extra;
  bool index32 = numel < INT32_MAX;
  for (int d = 0; d < ndim; ++d) {
    meta[d] = iter.shape()[d];
    meta[ndim + d] =
        static_cast<int64_t>(divider(static_cast<uint32_t>(std::min<int64_t>(meta[d], INT32_MAX))));
  }
  for (int op = 0; op < ntensors; ++op) {
    if (iter.is_cpu_scalar(op)) {
      // A host scalar (a wrapped Python number) travels in the parameter
      // block, converted to the kernel's dtype; its strides are all 0.
      at::Tensor value = iter.tensor(op).to(iter.common_dtype());
      args.ptr[op] = meta.size() * sizeof(int64_t);
      args.flags |= kInParams << op;
      size_t at = meta.size();
      meta.resize(at + 1);
      std::memcpy(&meta[at], value.const_data_ptr(), value.element_size());
      for (int d = 0; d < ndim; ++d) meta[ndim * (2 + op) + d] = 0;
      continue;
    }
    args.ptr[op] = reinterpret_cast<uint64_t>(iter.data_ptr(op));
    auto strides = iter.strides(op);
    int64_t low = 0, high = 0;
    for (int d = 0; d < ndim; ++d) {
      meta[ndim * (2 + op) + d] = strides[d];
      int64_t extent = (iter.shape()[d] - 1) * strides[d];
      (extent < 0 ? low : high) += extent;
    }
    index32 = index32 && high - low < INT32_MAX;
    int64_t width = static_cast<int64_t>(iter.element_size(op));
    args.flags |= static_cast<uint32_t>(std::countr_zero(static_cast<uint64_t>(width))) << (4 * op);
    accesses.push_back({args.ptr[op] + low, args.ptr[op] + high + width, op < iter.noutputs()});
  }
  if (index32) args.flags |= kIndex32;
  bool host_scalars = (args.flags & (kInParams * 15)) != 0;
  // Vector steps move 16 bytes of the narrowest operand, at least 4 elements
  // (VEC in shaders/compile.py), as aligned 16-byte accesses to every operand.
  uint64_t vector = 1;
  if (iter.is_contiguous() && !host_scalars) {
    args.flags |= kContiguous;
    bool aligned = true;
    int64_t narrowest = 8;
    for (int op = 0; op < ntensors; ++op) {
      aligned = aligned && args.ptr[op] % 16 == 0;
      narrowest = std::min(narrowest, static_cast<int64_t>(iter.element_size(op)));
    }
    if (aligned) vector = std::max<uint64_t>(4, 16 / narrowest);
  }
  args.flags |= static_cast<uint32_t>(std::countr_zero(vector)) << kVectorShift;
  // A contiguous launch needs no metadata: addresses come from the element sizes.
  uint32_t meta_bytes =
      (args.flags & kContiguous) ? 0 : static_cast<uint32_t>(meta.size() * sizeof(int64_t));
  // kPerInvocation steps each, of one element or one vector.
  uint64_t per_invocation = kPerInvocation * vector;
  uint64_t invocations = (static_cast<uint64_t>(numel) + per_invocation - 1) / per_invocation;
  dev.stream().dispatch(pipeline, &args, sizeof(args), meta.data(), meta_bytes, invocations,
                        accesses);
}

}  // namespace torchvulkan
