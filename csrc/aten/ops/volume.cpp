#include "aten/ops/volume.h"

#include <vector>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan {

at::Tensor five_d(at::Tensor t) {
  while (t.dim() < 5) t = t.unsqueeze(2);
  return t;
}

void launch_volume(const std::string& kernel, bool forward, const at::Tensor& input_side,
                   const at::Tensor& output_side, const std::vector<int64_t>& extra,
                   const at::Tensor& indices, std::span<const at::Tensor> reads) {
  at::Tensor in = five_d(input_side), out = five_d(output_side);
  uint64_t invocations = static_cast<uint64_t>((forward ? out : in).numel());
  if (invocations == 0) return;
  std::vector<int64_t> words = {int64_t(address_of(in)), int64_t(address_of(out)),
                                in.size(0) * in.size(1), in.size(1)};
  for (const at::Tensor* t : {&in, &out})
    words.insert(words.end(), t->sizes().begin() + 2, t->sizes().end());
  for (const at::Tensor* t : {&in, &out})
    words.insert(words.end(), t->strides().begin(), t->strides().end());
  std::vector<rt::Access> accesses = {span_of(in, !forward), span_of(out, forward)};
  if (indices.defined()) {
    at::Tensor idx = five_d(indices);
    words.push_back(int64_t(address_of(idx)));
    words.insert(words.end(), idx.strides().begin(), idx.strides().end());
    accesses.push_back(span_of(idx, forward));
  }
  for (const at::Tensor& t : reads) accesses.push_back(span_of(t, false));
  words.insert(words.end(), extra.begin(), extra.end());
  launch_with_params(device_for(in), kernel + "." + dtype_name(in.scalar_type()), words,
                     invocations, accesses);
}

}  // namespace torchvulkan
