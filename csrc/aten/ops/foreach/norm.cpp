// _foreach_norm for ord 1, 2 and inf (clip_grad_norm_'s per-tensor norms):
// two multi-tensor passes (shaders/reduce/foreach_norm.comp), per-chunk
// partial results and then one workgroup per tensor. Other orders, and an
// output dtype other than the input's, take ATen's slow path.
#include <ATen/ops/_foreach_norm_native.h>
#include <ATen/ops/empty.h>
#include <torch/library.h>

#include <limits>

#include "aten/ops/foreach/foreach.h"

namespace torchvulkan::foreach {
namespace {

std::vector<at::Tensor> norm(TensorList self, const c10::Scalar& ord,
                             std::optional<c10::ScalarType> dtype) {
  at::native::check_foreach_api_restrictions(self);
  double p = ord.toDouble();
  int code = p == 1 ? 0 : p == 2 ? 1 : p == std::numeric_limits<double>::infinity() ? 2 : -1;
  c10::ScalarType type = self[0].scalar_type();
  bool fast = code >= 0 && at::isFloatingType(type) && (!dtype || *dtype == type) &&
              at::native::can_use_fast_route({self});
  // The inf-norm of an empty tensor is an error, left to the slow path.
  for (const at::Tensor& t : self) fast = fast && (code != 2 || t.numel() > 0);
  std::string partial = fast ? kernel("foreach_norm", "partial", self[0]) : "";
  std::string finish = fast ? kernel("foreach_norm", "finish", self[0]) : "";
  if (partial.empty() || finish.empty())
    return at::native::foreach_tensor_norm_slow(self, ord, dtype);

  uint64_t chunk = multi_tensor_chunk(partial, self[0]);
  MultiLaunch first, second;
  first.scalars[0] = second.scalars[0] = static_cast<uint64_t>(code);
  uint64_t total = 0;
  for (const at::Tensor& t : self) {
    uint64_t count = (static_cast<uint64_t>(t.numel()) + chunk - 1) / chunk;
    first.per_tensor.push_back(total);
    second.per_tensor.push_back(total | count << 32);
    total += count;
  }
  TORCH_CHECK(total < (uint64_t(1) << 32), "torchvulkan: _foreach_norm over too many elements");
  auto acc = type == c10::kDouble ? c10::kDouble : c10::kFloat;
  at::Tensor partials =
      at::empty({static_cast<int64_t>(std::max<uint64_t>(total, 1))}, self[0].options().dtype(acc));
  multi_tensor_apply(partial, {MultiOperand::list(self), {{partials}, true}}, first);

  std::vector<at::Tensor> out;
  for (size_t i = 0; i < self.size(); ++i) out.push_back(at::empty({}, self[0].options()));
  multi_tensor_apply(finish, {MultiOperand::list(out, true), {{partials}}}, second);
  return out;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_foreach_norm.Scalar", norm);
}

}  // namespace torchvulkan::foreach
