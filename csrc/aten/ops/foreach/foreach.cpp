#include "aten/ops/foreach/foreach.h"

#include <ATen/ops/empty_like.h>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan::foreach {

std::string kernel(const char* family, std::string_view op, const at::Tensor& like) {
  std::string name =
      std::string(family) + "." + std::string(op) + "." + dtype_name(like.scalar_type());
  return device_for(like).pipelines().available(name) ? name : std::string();
}

std::vector<at::Tensor> empty_like(TensorList self) {
  std::vector<at::Tensor> out;
  out.reserve(self.size());
  for (const at::Tensor& t : self) out.push_back(at::empty_like(t));
  return out;
}

void run(const std::string& kernel, TensorList out, std::vector<MultiOperand> inputs,
         MultiLaunch launch) {
  inputs.insert(inputs.begin(), MultiOperand::list(out, true));
  launch.vector = true;  // the foreach_* kernels have a vector path
  multi_tensor_apply(kernel, inputs, launch);
}

uint64_t bits(const c10::Scalar& value, const at::Tensor& like) {
  return scalar_bits(value, like.scalar_type());
}

MultiLaunch per_tensor(int slot, at::ArrayRef<c10::Scalar> scalars, const at::Tensor& like) {
  MultiLaunch launch;
  launch.per_tensor_slot = slot;
  for (const c10::Scalar& s : scalars) launch.per_tensor.push_back(bits(s, like));
  return launch;
}

}  // namespace torchvulkan::foreach
