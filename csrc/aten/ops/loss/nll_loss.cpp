// nll_loss forward and backward (the second half of cross_entropy) through
// shaders/loss/nll.comp: the sum and the mean in one workgroup up to
// kTotalRounds samples an invocation, per-sample losses and native sums
// beyond; the backward pass in one kernel that also writes the zeros.
#include <ATen/core/ATen_fwd.h>
#include <ATen/core/Reduction.h>
#include <ATen/ops/div.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/nll_loss_backward_meta.h>
#include <ATen/ops/nll_loss_forward_meta.h>
#include <torch/library.h>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

struct NllArgs {
  uint64_t source, target, weight, result, out_weight;
  int64_t samples, classes, ignore_index, sample_stride, class_stride, target_stride;
  uint32_t mode, pad;
};

NllArgs layout(const at::Tensor& self, const at::Tensor& target, const at::Tensor& weight,
               int64_t ignore_index) {
  NllArgs args{};
  bool batched = self.dim() == 2;
  args.samples = batched ? self.size(0) : 1;
  args.classes = self.size(-1);
  args.sample_stride = batched ? self.stride(0) : 0;
  args.class_stride = self.stride(-1);
  args.target_stride = target.dim() ? target.stride(0) : 0;
  args.ignore_index = ignore_index;
  args.target = address_of(target);
  args.weight = address_of(weight);
  return args;
}

const rt::Kernel& kernel_for(const char* op, const at::Tensor& like) {
  return device_for(like).pipelines().get(std::string("nll.") + op + "." +
                                          dtype_name(like.scalar_type()));
}

void launch(const rt::Kernel& kernel, NllArgs& args, const at::Tensor& like, int64_t invocations,
            const std::vector<rt::Access>& accesses) {
  device_for(like).stream().dispatch(kernel, &args, sizeof(args), nullptr, 0,
                                     static_cast<uint64_t>(invocations), accesses);
}

// Samples an invocation of the one-workgroup sum walks at most: a
// classification batch is one launch where per-sample losses, two sums, a
// division and two copies were six (the MNIST benchmark's loss, six of its
// forward pass's eleven kernels). Longer walks, a load after a load each
// round, would take longer than those launches.
constexpr int64_t kTotalRounds = 32;

void forward(const at::Tensor& self, const at::Tensor& target, const at::Tensor& weight_in,
             int64_t reduction, int64_t ignore_index, const at::Tensor& output,
             const at::Tensor& total_weight) {
  at::Tensor weight = weight_in.defined() ? weight_in.contiguous() : weight_in;
  NllArgs args = layout(self, target, weight, ignore_index);
  args.source = address_of(self);
  std::vector<rt::Access> accesses = {span_of(self, false), span_of(target, false)};
  if (weight.defined()) accesses.push_back(span_of(weight, false));
  if (reduction == at::Reduction::None) {  // output: a fresh [N], or [] for one sample
    args.result = address_of(output);
    accesses.push_back(span_of(output, true));
    launch(kernel_for("samples", self), args, self, args.samples, accesses);
    total_weight.zero_();
    return;
  }
  const rt::Kernel& one_workgroup = kernel_for("total", self);
  if (args.samples <= kTotalRounds * static_cast<int64_t>(one_workgroup.workgroup_size)) {
    args.result = address_of(output);
    args.out_weight = address_of(total_weight);
    args.mode = reduction == at::Reduction::Sum ? 1 : 2;
    accesses.push_back(span_of(output, true));
    accesses.push_back(span_of(total_weight, true));
    launch(one_workgroup, args, self, one_workgroup.workgroup_size, accesses);
    return;
  }
  at::Tensor losses = at::empty({args.samples}, self.options());
  at::Tensor weights = at::empty({args.samples}, self.options());
  args.result = address_of(losses);
  args.out_weight = address_of(weights);
  accesses.push_back(span_of(losses, true));
  accesses.push_back(span_of(weights, true));
  launch(kernel_for("samples", self), args, self, args.samples, accesses);
  at::Tensor total = weights.sum();
  total_weight.copy_(total);
  output.copy_(reduction == at::Reduction::Mean ? at::div(losses.sum(), total) : losses.sum());
}

void backward(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
              const at::Tensor& weight_in, int64_t reduction, int64_t ignore_index,
              const at::Tensor& total_weight, const at::Tensor& grad_input) {
  // The kernel writes [N, C] densely: an out= grad_input of other strides
  // takes the result through a contiguous one.
  if (!grad_input.is_contiguous()) {
    at::Tensor dense = at::empty_like(grad_input, at::MemoryFormat::Contiguous);
    backward(grad_output, self, target, weight_in, reduction, ignore_index, total_weight, dense);
    grad_input.copy_(dense);
    return;
  }
  at::Tensor weight = weight_in.defined() ? weight_in.contiguous() : weight_in;
  at::Tensor grad = grad_output.contiguous();
  NllArgs args = layout(self, target, weight, ignore_index);
  args.source = address_of(grad);
  args.result = address_of(grad_input);
  args.out_weight = address_of(total_weight);
  args.mode = reduction == at::Reduction::None ? 0 : reduction == at::Reduction::Sum ? 1 : 2;
  std::vector<rt::Access> accesses = {span_of(grad, false), span_of(target, false),
                                      span_of(total_weight, false), span_of(grad_input, true)};
  if (weight.defined()) accesses.push_back(span_of(weight, false));
  launch(kernel_for("backward", self), args, self, args.samples * args.classes, accesses);
}

std::tuple<at::Tensor, at::Tensor> nll_loss_forward(const at::Tensor& self,
                                                    const at::Tensor& target,
                                                    const std::optional<at::Tensor>& weight,
                                                    int64_t reduction, int64_t ignore_index) {
  Functional<m::structured_nll_loss_forward> meta;
  at::Tensor w = weight.value_or(at::Tensor());
  meta.meta(self, target, at::OptionalTensorRef(w), reduction, ignore_index);
  forward(self, target, w, reduction, ignore_index, meta.outputs_[0], meta.outputs_[1]);
  return {meta.outputs_[0], meta.outputs_[1]};
}

std::tuple<at::Tensor&, at::Tensor&> nll_loss_forward_out(
    const at::Tensor& self, const at::Tensor& target, const std::optional<at::Tensor>& weight,
    int64_t reduction, int64_t ignore_index, at::Tensor& output, at::Tensor& total_weight) {
  auto [o, t] = torchvulkan::nll_loss_forward(self, target, weight, reduction, ignore_index);
  at::native::resize_output(output, o.sizes());
  at::native::resize_output(total_weight, t.sizes());
  output.copy_(o);
  total_weight.copy_(t);
  return {output, total_weight};
}

at::Tensor nll_loss_backward(const at::Tensor& grad_output, const at::Tensor& self,
                             const at::Tensor& target, const std::optional<at::Tensor>& weight,
                             int64_t reduction, int64_t ignore_index,
                             const at::Tensor& total_weight) {
  Functional<m::structured_nll_loss_backward> meta;
  at::Tensor w = weight.value_or(at::Tensor());
  meta.meta(grad_output, self, target, at::OptionalTensorRef(w), reduction, ignore_index,
            total_weight);
  backward(grad_output, self, target, w, reduction, ignore_index, total_weight, meta.outputs_[0]);
  return meta.outputs_[0];
}

at::Tensor& nll_loss_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                  const at::Tensor& target, const std::optional<at::Tensor>& weight,
                                  int64_t reduction, int64_t ignore_index,
                                  const at::Tensor& total_weight, at::Tensor& grad_input) {
  Out<m::structured_nll_loss_backward> meta(grad_input);
  at::Tensor w = weight.value_or(at::Tensor());
  meta.meta(grad_output, self, target, at::OptionalTensorRef(w), reduction, ignore_index,
            total_weight);
  backward(grad_output, self, target, w, reduction, ignore_index, total_weight, grad_input);
  return grad_input;
}

// nll_loss2d: [N, C, d1, ...] with targets [N, d1, ...], as nll_loss over
// samples [N * d1 * ..., C].
at::Tensor samples_of(const at::Tensor& self) {
  return self.movedim(1, -1).reshape({-1, self.size(1)});
}

void check_2d(const at::Tensor& self, const at::Tensor& target) {
  TORCH_CHECK(self.dim() >= 3,
              "only batches of spatial inputs supported (4D tensors), but got input of size: ",
              self.sizes());
  auto expected = self.sizes().vec();
  expected.erase(expected.begin() + 1);
  TORCH_CHECK(target.sizes().vec() == expected,
              "input and target batch or spatial sizes don't match: target ", target.sizes(),
              ", input ", self.sizes());
}

std::tuple<at::Tensor, at::Tensor> nll_loss2d_forward(const at::Tensor& self,
                                                      const at::Tensor& target,
                                                      const std::optional<at::Tensor>& weight,
                                                      int64_t reduction, int64_t ignore_index) {
  check_2d(self, target);
  auto [output, total] = torchvulkan::nll_loss_forward(samples_of(self), target.reshape({-1}),
                                                       weight, reduction, ignore_index);
  if (reduction == at::Reduction::None) output = output.view(target.sizes());
  return {output, total};
}

std::tuple<at::Tensor&, at::Tensor&> nll_loss2d_forward_out(
    const at::Tensor& self, const at::Tensor& target, const std::optional<at::Tensor>& weight,
    int64_t reduction, int64_t ignore_index, at::Tensor& output, at::Tensor& total_weight) {
  auto [o, t] = torchvulkan::nll_loss2d_forward(self, target, weight, reduction, ignore_index);
  at::native::resize_output(output, o.sizes());
  at::native::resize_output(total_weight, t.sizes());
  output.copy_(o);
  total_weight.copy_(t);
  return {output, total_weight};
}

at::Tensor nll_loss2d_backward(const at::Tensor& grad_output, const at::Tensor& self,
                               const at::Tensor& target, const std::optional<at::Tensor>& weight,
                               int64_t reduction, int64_t ignore_index,
                               const at::Tensor& total_weight) {
  check_2d(self, target);
  at::Tensor grad = reduction == at::Reduction::None ? grad_output.reshape({-1}) : grad_output;
  at::Tensor samples = samples_of(self);
  at::Tensor grad_samples = torchvulkan::nll_loss_backward(
      grad, samples, target.reshape({-1}), weight, reduction, ignore_index, total_weight);
  auto shape = self.movedim(1, -1).sizes();
  return grad_samples.view(shape).movedim(-1, 1).contiguous();
}

at::Tensor& nll_loss2d_backward_out(const at::Tensor& grad_output, const at::Tensor& self,
                                    const at::Tensor& target,
                                    const std::optional<at::Tensor>& weight, int64_t reduction,
                                    int64_t ignore_index, const at::Tensor& total_weight,
                                    at::Tensor& grad_input) {
  at::Tensor grad = torchvulkan::nll_loss2d_backward(grad_output, self, target, weight, reduction,
                                                     ignore_index, total_weight);
  at::native::resize_output(grad_input, grad.sizes());
  grad_input.copy_(grad);
  return grad_input;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("nll_loss2d_forward", nll_loss2d_forward);
  m.impl("nll_loss2d_forward.output", nll_loss2d_forward_out);
  m.impl("nll_loss2d_backward", nll_loss2d_backward);
  m.impl("nll_loss2d_backward.grad_input", nll_loss2d_backward_out);
  m.impl("nll_loss_forward", nll_loss_forward);
  m.impl("nll_loss_forward.output", nll_loss_forward_out);
  m.impl("nll_loss_backward", nll_loss_backward);
  m.impl("nll_loss_backward.grad_input", nll_loss_backward_out);
}

}  // namespace torchvulkan
