#include "aten/ops/foreach/multi_tensor.h"

#include <c10/util/Exception.h>

#include <algorithm>
#include <string>

#include "aten/context.h"

namespace torchvulkan {
namespace {

// Mirrors the push constants of shaders/common/multi_tensor.glsl.
struct Args {
  uint64_t table;
  uint64_t scalar[6];
  uint32_t ntensors;
  uint32_t groups;
  uint32_t entry_words;
  uint32_t flags;
};
constexpr uint64_t kPerInvocation = 4;
constexpr uint32_t kScalarOperand = 1u << 16;
constexpr uint32_t kVectorSteps = 1u << 28;
// Tensors per dispatch: bounds the table (and the hazard list) of one dispatch.
constexpr size_t kMaxTensors = 256;

}  // namespace

void multi_tensor_apply(std::string_view kernel, const std::vector<MultiOperand>& operands,
                        const MultiLaunch& launch) {
  TORCH_INTERNAL_ASSERT(!operands.empty() && operands.size() <= 16);
  const std::vector<at::Tensor>& first = operands[0].tensors;
  if (first.empty()) return;
  for (const MultiOperand& op : operands) {
    TORCH_INTERNAL_ASSERT(op.tensors.size() <= 1 || op.tensors.size() == first.size());
  }
  rt::Device& dev = device_for(first[0]);
  const rt::Kernel& pipeline = dev.pipelines().get(kernel);
  const uint32_t words = 3 + static_cast<uint32_t>(operands.size());
  // Vector steps move 16 bytes of the kernel's dtype, at least 4 elements
  // (VEC in shaders/compile.py), so chunks are that many times longer.
  bool aligned = launch.vector;
  for (const MultiOperand& op : operands) {
    if (op.first_element) continue;
    for (const at::Tensor& t : op.tensors) aligned = aligned && address_of(t) % 16 == 0;
  }
  const uint64_t vector =
      aligned ? std::max<uint64_t>(4, 16 / static_cast<uint64_t>(first[0].element_size())) : 1;
  const uint64_t chunk = pipeline.workgroup_size * kPerInvocation * vector;

  Args args{};
  std::copy(launch.scalars.begin(), launch.scalars.end(), args.scalar);
  args.entry_words = words;
  for (size_t k = 0; k < operands.size(); ++k) {
    if (operands[k].first_element) args.flags |= 1u << k;
    TORCH_INTERNAL_ASSERT(!operands[k].scalar || k < 4,
                          "torchvulkan: scalar operands are operands 0 to 3");
    if (operands[k].scalar) args.flags |= kScalarOperand << k;
  }
  if (aligned) args.flags |= kVectorSteps;
  if (launch.per_tensor_slot >= 0)
    args.flags |= static_cast<uint32_t>(launch.per_tensor_slot + 1) << 24;

  std::vector<uint64_t> table;
  std::vector<rt::Access> accesses;
  for (size_t begin = 0; begin < first.size(); begin += kMaxTensors) {
    size_t end = std::min(first.size(), begin + kMaxTensors);
    table.clear();
    accesses.clear();
    for (const MultiOperand& op : operands) {
      if (op.tensors.size() == 1) accesses.push_back(span_of(op.tensors[0], op.write));
    }
    uint64_t groups = 0;
    for (size_t t = begin; t < end; ++t) {
      uint64_t numel = static_cast<uint64_t>(first[t].numel());
      if (numel == 0) continue;
      table.push_back(numel);
      table.push_back(groups);
      table.push_back(launch.per_tensor.empty() ? 0 : launch.per_tensor[t]);
      for (const MultiOperand& op : operands) {
        if (op.tensors.empty()) {
          table.push_back(0);
          continue;
        }
        const at::Tensor& tensor = op.tensors.size() == 1 ? op.tensors[0] : op.tensors[t];
        table.push_back(address_of(tensor));
        if (op.tensors.size() > 1) accesses.push_back(span_of(tensor, op.write));
      }
      groups += (numel + chunk - 1) / chunk;
    }
    if (groups == 0) continue;
    TORCH_CHECK(groups <= UINT32_MAX, "torchvulkan: a foreach launch of ", groups,
                " workgroups is too large");
    args.ntensors = static_cast<uint32_t>(table.size() / words);
    args.groups = static_cast<uint32_t>(groups);
    dev.stream().dispatch(pipeline, &args, sizeof(args), table.data(),
                          static_cast<uint32_t>(table.size() * sizeof(uint64_t)),
                          groups * pipeline.workgroup_size, accesses);
  }
}

uint64_t multi_tensor_chunk(std::string_view kernel, const at::Tensor& like) {
  return device_for(like).pipelines().get(kernel).workgroup_size * kPerInvocation;
}

}  // namespace torchvulkan
