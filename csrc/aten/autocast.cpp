// torch.autocast("vulkan"): ATen's own op lists and cast policies, the ones
// CUDA and MPS register, for the AutocastPrivateUse1 key. Matrix products,
// convolutions and attention run in the autocast dtype (float16 unless the
// context names bfloat16), the ops that lose range or precision in it
// (exp, log, norms, losses, softmax, sums) in float32, and the mixed-input
// ops (addcmul, cat-like ops, ...) in the widest input type. Every other op
// falls through to its vulkan kernel unchanged.
#include <ATen/Functions.h>
#include <ATen/Operators.h>
#include <ATen/autocast_mode.h>
#include <torch/library.h>

namespace torchvulkan {
namespace {

// The op lists name these unqualified (ATen expands them inside namespace at).
using at::IntArrayRef;
using at::Scalar;
using at::ScalarType;
using at::Tensor;
#if __has_include(<ATen/core/Dimname.h>)
using at::DimnameList;  // named tensors: in the lists of torch before 2.13
#endif

// As on CUDA: binary_cross_entropy is unsafe in float16 (its log saturates).
Tensor binary_cross_entropy_banned(const Tensor&, const Tensor&, const std::optional<Tensor>&,
                                   int64_t) {
  TORCH_CHECK(
      false,
      "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast: "
      "use torch.nn.functional.binary_cross_entropy_with_logits or torch.nn.BCEWithLogitsLoss, "
      "which combine the sigmoid and the loss and are safe to autocast.");
}

#define LOWER_PRECISION_FP(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, lower_precision_fp)
#define FP32(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, fp32)
#define FP32_SET_OPT_DTYPE(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, fp32_set_opt_dtype)
#define PROMOTE(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, promote)

TORCH_LIBRARY_IMPL(_, AutocastPrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}

TORCH_LIBRARY_IMPL(aten, AutocastPrivateUse1, m) {
  AT_FORALL_LOWER_PRECISION_FP(LOWER_PRECISION_FP)
  AT_FORALL_FP32(FP32)
  AT_FORALL_FP32_SET_OPT_DTYPE(FP32_SET_OPT_DTYPE)
  AT_FORALL_DIFFERENT_REDISPATCH_SIGNATURE(KERNEL_DIFFERENT_REDISPATCH_SIGNATURE_PRIVATEUSEONE)
  AT_FORALL_PROMOTE(PROMOTE)
  m.impl(TORCH_SELECTIVE_NAME("aten::binary_cross_entropy"), TORCH_FN(binary_cross_entropy_banned));
}

}  // namespace
}  // namespace torchvulkan
