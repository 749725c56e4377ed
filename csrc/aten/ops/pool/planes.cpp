#include "aten/ops/pool/planes.h"

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan::pool {

std::array<int64_t, 2> pair(at::IntArrayRef value, std::array<int64_t, 2> fallback) {
  if (value.empty()) return fallback;
  return {value[0], value.size() == 1 ? value[0] : value[1]};
}

at::Tensor batched(const at::Tensor& t) {
  return t.dim() == 3 ? t.unsqueeze(0) : t;
}

void launch_planes(const std::string& kernel, const std::vector<PlaneOperand>& operands,
                   size_t per_element_of, std::initializer_list<int64_t> extra) {
  std::vector<at::Tensor> planes;
  for (const PlaneOperand& op : operands) planes.push_back(batched(op.tensor));
  uint64_t invocations = static_cast<uint64_t>(planes[per_element_of].numel());
  if (invocations == 0) return;
  const at::Tensor &in = planes[0], &out = planes[1];
  std::vector<int64_t> words;
  for (const at::Tensor& t : planes) words.push_back(reinterpret_cast<int64_t>(t.const_data_ptr()));
  words.insert(words.end(), {in.size(0) * in.size(1), in.size(1), in.size(2), in.size(3),
                             out.size(2), out.size(3)});
  for (const at::Tensor& t : planes)
    for (int64_t d = 0; d < 4; ++d) words.push_back(t.stride(d));
  words.insert(words.end(), extra);
  std::vector<rt::Access> accesses;
  for (size_t i = 0; i < planes.size(); ++i)
    accesses.push_back(span_of(planes[i], operands[i].write));
  rt::Device& dev = device_for(in);
  const rt::Kernel& k = dev.pipelines().get(kernel + "." + dtype_name(in.scalar_type()));
  uint64_t push = 0;  // the stream writes the parameters' address here
  dev.stream().dispatch(k, &push, sizeof(push), words.data(),
                        static_cast<uint32_t>(words.size() * sizeof(int64_t)), invocations,
                        accesses);
}

}  // namespace torchvulkan::pool
