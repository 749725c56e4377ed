// _ctc_loss and _ctc_loss_backward (F.ctc_loss's composite reduces and
// applies zero_infinity to the forward), one kernel for both
// (shaders/loss/ctc.comp), with the CPU's argument checks. The lengths come
// from the host (the composite brings tensor lengths there, as on the CPU):
// each batch element's input length, target length and targets' offset go
// to the device as one small table. float32 and float64, as the CPU.
#include <ATen/TensorOperators.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/tensor.h>
#include <torch/library.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan {
namespace {

struct Problem {
  at::Tensor targets, table;  // int64 contiguous targets; [N, 3] lengths and offsets
  int64_t max_target = 0;
};

Problem check(const at::Tensor& log_probs, const at::Tensor& targets, at::IntArrayRef input_lengths,
              at::IntArrayRef target_lengths, int64_t blank) {
  TORCH_CHECK(log_probs.scalar_type() == at::kFloat || log_probs.scalar_type() == at::kDouble,
              "ctc_loss: torchvulkan computes float32 and float64 log_probs, as the CPU; got ",
              log_probs.scalar_type());
  TORCH_CHECK(targets.scalar_type() == at::kLong || targets.scalar_type() == at::kInt,
              "ctc_loss: targets must be int32 or int64, got ", targets.scalar_type());
  TORCH_CHECK(log_probs.dim() == 3, "ctc_loss: expected log_probs [T, N, C], got ",
              log_probs.sizes());
  int64_t T = log_probs.size(0), N = log_probs.size(1), C = log_probs.size(2);
  TORCH_CHECK(blank >= 0 && blank < C, "blank must be in label range");
  TORCH_CHECK(int64_t(input_lengths.size()) == N, "input_lengths must be of size batch_size");
  TORCH_CHECK(int64_t(target_lengths.size()) == N, "target_lengths must be of size batch_size");
  Problem problem;
  std::vector<int64_t> table;
  int64_t offset = 0;
  for (int64_t b = 0; b < N; ++b) {
    int64_t length = target_lengths[b];
    TORCH_CHECK(length >= 0, "Expected target_lengths to be non-negative, but got ", length);
    TORCH_CHECK(input_lengths[b] >= 0 && input_lengths[b] <= T,
                "Expected input_lengths to have value at most ", T, ", but got value ",
                input_lengths[b]);
    problem.max_target = std::max(problem.max_target, length);
    int64_t first = targets.dim() == 1 ? offset : b * targets.size(1);
    table.insert(table.end(), {input_lengths[b], length, first});
    offset += length;
  }
  if (targets.dim() == 1) {
    TORCH_CHECK(targets.size(0) >= offset, "Expected tensor to have size at least ", offset,
                " at dimension 0, but got size ", targets.size(0));
  } else {
    TORCH_CHECK(targets.dim() == 2 && targets.size(0) == N,
                "ctc_loss: expected targets [N, S] or concatenated, got ", targets.sizes());
    TORCH_CHECK(targets.size(1) >= problem.max_target, "Expected tensor to have size at least ",
                problem.max_target, " at dimension 1, but got size ", targets.size(1));
  }
  // Targets may come from the host, as CUDA allows.
  problem.targets = targets.to(log_probs.device(), at::kLong).contiguous();
  problem.table = at::tensor(table, at::TensorOptions().dtype(at::kLong)).to(log_probs.device());
  return problem;
}

void launch(const char* op, const at::Tensor& log_probs, const Problem& problem, int64_t blank,
            bool zero_infinity, const at::Tensor& log_alpha, const at::Tensor& nll,
            const at::Tensor& log_beta, const at::Tensor& grad, const at::Tensor& grad_out) {
  bool forward = !grad_out.defined();
  std::vector<int64_t> words;
  for (const at::Tensor* t : {&log_probs, &problem.targets, &problem.table, &log_alpha, &nll,
                              &log_beta, &grad, &grad_out})
    words.push_back(int64_t(address_of(*t)));
  words.insert(words.end(), {log_probs.size(0), log_probs.size(2), log_alpha.size(2), blank,
                             int64_t(zero_infinity), log_probs.stride(0), log_probs.stride(1),
                             log_probs.stride(2)});
  if (forward)
    words.insert(words.end(), 3, 0);
  else
    words.insert(words.end(), {grad.stride(0), grad.stride(1), grad.stride(2)});
  words.push_back(log_probs.size(1));
  std::vector<rt::Access> accesses = {span_of(log_probs, false), span_of(problem.targets, false),
                                      span_of(problem.table, false), span_of(log_alpha, forward),
                                      span_of(nll, forward)};
  if (!forward)
    accesses.insert(accesses.end(),
                    {span_of(log_beta, true), span_of(grad, true), span_of(grad_out, false)});
  rt::Device& dev = device_for(log_probs);
  const rt::Kernel& kernel =
      dev.pipelines().get(std::string("ctc.") + op + "." + dtype_name(log_probs.scalar_type()));
  // One workgroup per batch element.
  launch_with_params(dev, std::string("ctc.") + op + "." + dtype_name(log_probs.scalar_type()),
                     words, static_cast<uint64_t>(log_probs.size(1)) * kernel.workgroup_size,
                     accesses);
}

std::tuple<at::Tensor, at::Tensor> ctc_loss(const at::Tensor& log_probs, const at::Tensor& targets,
                                            at::IntArrayRef input_lengths,
                                            at::IntArrayRef target_lengths, int64_t blank,
                                            bool zero_infinity) {
  Problem problem = check(log_probs, targets, input_lengths, target_lengths, blank);
  int64_t N = log_probs.size(1);
  at::Tensor log_alpha =
      at::empty({N, log_probs.size(0), 2 * problem.max_target + 1}, log_probs.options());
  at::Tensor nll = at::empty({N}, log_probs.options());
  if (N > 0)
    launch("forward", log_probs, problem, blank, zero_infinity, log_alpha, nll, {}, {}, {});
  return {nll, log_alpha};
}

at::Tensor ctc_loss_backward(const at::Tensor& grad_out, const at::Tensor& log_probs,
                             const at::Tensor& targets, at::IntArrayRef input_lengths,
                             at::IntArrayRef target_lengths, const at::Tensor& nll,
                             const at::Tensor& log_alpha, int64_t blank, bool zero_infinity) {
  Problem problem = check(log_probs, targets, input_lengths, target_lengths, blank);
  at::Tensor grad = at::empty_like(log_probs);
  if (log_probs.size(1) == 0) return grad;
  at::Tensor log_beta = at::empty_like(log_alpha);
  launch("backward", log_probs, problem, blank, zero_infinity, log_alpha.contiguous(),
         nll.contiguous(), log_beta, grad, grad_out.contiguous());
  return grad;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_ctc_loss", ctc_loss);
  m.impl("_ctc_loss_backward", ctc_loss_backward);
}

}  // namespace torchvulkan
