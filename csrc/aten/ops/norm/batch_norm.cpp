// Batch norm: one workgroup per channel computes the statistics, updates the
// running ones and normalizes (shaders/norm/batch_norm.comp). Registered under
// every name that reaches a backend: native_batch_norm (F.batch_norm, through
// _batch_norm_impl_index), _native_batch_norm_legit and
// _batch_norm_with_update (exported and compiled programs), and both backward
// ops; batch_norm_update_stats (the statistics alone) too.
#include <ATen/native/Resize.h>
#include <ATen/native/cpu/mixed_data_type.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <torch/library.h>

#include <string>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/ops/norm/channels.h"

namespace torchvulkan {
namespace {

using at::Tensor;
using OptTensor = std::optional<Tensor>;

// Mirrors the push constants of shaders/norm/batch_norm.comp.
struct Args {
  uint64_t shape, x, dy, weight, bias, running_mean, running_var, target, save_mean, save_invstd,
      grad_weight, grad_bias, eps, momentum;
};

void launch(const char* op, Args& args, const norm::Channels& in, c10::ScalarType param,
            const std::vector<rt::Access>& accesses) {
  if (in.shape.c == 0) return;
  rt::Device& dev = device_for(in.x);
  std::string family = param == in.x.scalar_type() ? "batch_norm." : "batch_norm_mixed.";
  const rt::Kernel& kernel =
      dev.pipelines().get(family + op + "." + dtype_name(in.x.scalar_type()));
  dev.stream().dispatch(kernel, &args, sizeof(args), &in.shape, sizeof(in.shape),
                        static_cast<uint64_t>(in.shape.c) * kernel.workgroup_size, accesses);
}

void check_channels(const norm::Channels& in,
                    std::initializer_list<std::pair<const char*, const Tensor*>> params) {
  for (auto [name, t] : params) {
    TORCH_CHECK(!t->defined() || t->numel() == in.shape.c, name, " should contain ", in.shape.c,
                " elements not ", t->numel());
  }
}

// The forward kernels: normalize `in` into `out` (left undefined by
// update_stats) with the batch statistics, saved into `save_mean` and
// `save_b` (invstd, or the biased variance for update_stats), or with the
// running ones; in training the running statistics are updated in place, a
// strided one through a dense copy.
void forward(const char* op, const norm::Channels& in, c10::ScalarType param, bool train,
             const Tensor& weight, const Tensor& bias, const Tensor& running_mean,
             const Tensor& running_var, const Tensor& out, const Tensor& save_mean,
             const Tensor& save_b, double eps, double momentum) {
  Tensor mean_in = norm::dense(running_mean), var_in = norm::dense(running_var);
  Tensor w = norm::dense(weight), b = norm::dense(bias);
  Args args{0,
            address_of(in.x),
            0,
            address_of(w),
            address_of(b),
            address_of(mean_in),
            address_of(var_in),
            address_of(out),
            address_of(save_mean),
            address_of(save_b),
            0,
            0,
            norm::acc_bits(eps, in.x),
            norm::acc_bits(momentum, in.x)};
  std::vector<rt::Access> accesses;
  norm::access(accesses, in.x, false);
  norm::access(accesses, w, false);
  norm::access(accesses, b, false);
  norm::access(accesses, mean_in, train);
  norm::access(accesses, var_in, train);
  norm::access(accesses, out, true);
  norm::access(accesses, save_mean, true);
  norm::access(accesses, save_b, true);
  launch(op, args, in, param, accesses);
  if (train && mean_in.defined() && !mean_in.is_same(running_mean)) running_mean.copy_(mean_in);
  if (train && var_in.defined() && !var_in.is_same(running_var)) running_var.copy_(var_in);
}

std::tuple<Tensor, Tensor, Tensor> batch_norm(const Tensor& input, const OptTensor& weight_opt,
                                              const OptTensor& bias_opt,
                                              const OptTensor& running_mean_opt,
                                              const OptTensor& running_var_opt, bool train,
                                              double momentum, double eps) {
  Tensor weight = norm::value(weight_opt), bias = norm::value(bias_opt);
  Tensor running_mean = norm::value(running_mean_opt), running_var = norm::value(running_var_opt);
  norm::Channels in = norm::channels(input);
  TORCH_CHECK(train || (running_mean.defined() && running_var.defined()),
              "batch_norm: running_mean and running_var must be defined in evaluation mode");
  check_channels(in, {{"weight", &weight},
                      {"bias", &bias},
                      {"running_mean", &running_mean},
                      {"running_var", &running_var}});
  c10::ScalarType param = norm::param_dtype(input, weight, bias, running_mean, running_var);
  Tensor out = at::empty_like(in.x);
  auto options = input.options().dtype(param);
  Tensor save_mean = at::empty({train ? in.shape.c : 0}, options);
  Tensor save_invstd = at::empty({train ? in.shape.c : 0}, options);
  forward(train ? "forward" : "forward_eval", in, param, train, weight, bias, running_mean,
          running_var, out, save_mean, save_invstd, eps, momentum);
  return {out, save_mean, save_invstd};
}

// The training forward's statistics and running update without the
// normalization (SyncBatchNorm's and the functorch batching rules' building
// block): the batch mean and, as on the CPU, the biased variance in place of
// invstd.
std::tuple<Tensor, Tensor> batch_norm_update_stats(const Tensor& input,
                                                   const OptTensor& running_mean_opt,
                                                   const OptTensor& running_var_opt,
                                                   double momentum) {
  Tensor running_mean = norm::value(running_mean_opt), running_var = norm::value(running_var_opt);
  norm::Channels in = norm::channels(input);
  TORCH_CHECK(input.numel() != 0,
              "input tensor must have at least one element, but got input_sizes = ", input.sizes());
  check_channels(in, {{"running_mean", &running_mean}, {"running_var", &running_var}});
  c10::ScalarType param = norm::param_dtype(input, running_mean, running_var);
  auto options = input.options().dtype(param);
  Tensor save_mean = at::empty({in.shape.c}, options), save_var = at::empty({in.shape.c}, options);
  forward("update_stats", in, param, true, {}, {}, running_mean, running_var, {}, save_mean,
          save_var, 0.0, momentum);
  return {save_mean, save_var};
}

std::tuple<Tensor, Tensor, Tensor> batch_norm_backward(const Tensor& grad_out, const Tensor& input,
                                                       const OptTensor& weight_opt,
                                                       const OptTensor& running_mean_opt,
                                                       const OptTensor& running_var_opt,
                                                       const OptTensor& save_mean_opt,
                                                       const OptTensor& save_invstd_opt, bool train,
                                                       double eps, std::array<bool, 3> mask) {
  Tensor weight = norm::value(weight_opt);
  Tensor running_mean = norm::value(running_mean_opt), running_var = norm::value(running_var_opt);
  Tensor save_mean = norm::value(save_mean_opt), save_invstd = norm::value(save_invstd_opt);
  TORCH_CHECK(grad_out.sizes() == input.sizes(), "batch_norm_backward: grad_out of size ",
              grad_out.sizes(), " does not match the input's ", input.sizes());
  norm::Channels in = norm::channels(input);
  // The statistics the forward normalized with: saved in training, running in evaluation.
  const Tensor& mean = train ? save_mean : running_mean;
  const Tensor& var = train ? save_invstd : running_var;
  TORCH_CHECK(mean.defined() && var.defined(), "batch_norm_backward: ",
              train ? "save_mean and save_invstd" : "running_mean and running_var",
              " must be defined");
  check_channels(in, {{"weight", &weight}, {"mean", &mean}, {"var", &var}});
  c10::ScalarType param = norm::param_dtype(input, weight, mean, var);
  Tensor dy = in.like(grad_out);
  Tensor w = norm::dense(weight), m = norm::dense(mean), v = norm::dense(var);
  auto options = input.options().dtype(param);
  Tensor grad_input = mask[0] ? at::empty_like(in.x) : Tensor();
  Tensor grad_weight = mask[1] ? at::empty({in.shape.c}, options) : Tensor();
  Tensor grad_bias = mask[2] ? at::empty({in.shape.c}, options) : Tensor();
  if (!mask[0] && !mask[1] && !mask[2]) return {};
  Args args{0,
            address_of(in.x),
            address_of(dy),
            address_of(w),
            0,
            train ? 0 : address_of(m),
            train ? 0 : address_of(v),
            address_of(grad_input),
            train ? address_of(m) : 0,
            train ? address_of(v) : 0,
            address_of(grad_weight),
            address_of(grad_bias),
            norm::acc_bits(eps, input),
            0};
  std::vector<rt::Access> accesses;
  norm::access(accesses, in.x, false);
  norm::access(accesses, dy, false);
  norm::access(accesses, w, false);
  norm::access(accesses, m, false);
  norm::access(accesses, v, false);
  norm::access(accesses, grad_input, true);
  norm::access(accesses, grad_weight, true);
  norm::access(accesses, grad_bias, true);
  launch(train ? "backward" : "backward_eval", args, in, param, accesses);
  return {grad_input, grad_weight, grad_bias};
}

std::tuple<Tensor&, Tensor&, Tensor&> copy_out(std::tuple<Tensor, Tensor, Tensor> result,
                                               Tensor& out, Tensor& save_mean,
                                               Tensor& save_invstd) {
  auto& [o, m, s] = result;
  for (auto [from, to] :
       {std::pair<Tensor*, Tensor*>{&o, &out}, {&m, &save_mean}, {&s, &save_invstd}}) {
    at::native::resize_output(*to, from->sizes());
    to->copy_(*from);
  }
  return {out, save_mean, save_invstd};
}

std::tuple<Tensor&, Tensor&, Tensor&> batch_norm_out(const Tensor& input, const OptTensor& weight,
                                                     const OptTensor& bias,
                                                     const OptTensor& running_mean,
                                                     const OptTensor& running_var, bool train,
                                                     double momentum, double eps, Tensor& out,
                                                     Tensor& save_mean, Tensor& save_invstd) {
  return copy_out(batch_norm(input, weight, bias, running_mean, running_var, train, momentum, eps),
                  out, save_mean, save_invstd);
}

std::tuple<Tensor, Tensor, Tensor> batch_norm_legit(const Tensor& input, const OptTensor& weight,
                                                    const OptTensor& bias, Tensor& running_mean,
                                                    Tensor& running_var, bool train,
                                                    double momentum, double eps) {
  return batch_norm(input, weight, bias, running_mean, running_var, train, momentum, eps);
}

std::tuple<Tensor&, Tensor&, Tensor&> batch_norm_legit_out(
    const Tensor& input, const OptTensor& weight, const OptTensor& bias, Tensor& running_mean,
    Tensor& running_var, bool train, double momentum, double eps, Tensor& out, Tensor& save_mean,
    Tensor& save_invstd) {
  return copy_out(batch_norm(input, weight, bias, running_mean, running_var, train, momentum, eps),
                  out, save_mean, save_invstd);
}

std::tuple<Tensor, Tensor, Tensor> batch_norm_legit_no_stats(const Tensor& input,
                                                             const OptTensor& weight,
                                                             const OptTensor& bias, bool train,
                                                             double momentum, double eps) {
  return batch_norm(input, weight, bias, {}, {}, train, momentum, eps);
}

std::tuple<Tensor&, Tensor&, Tensor&> batch_norm_legit_no_stats_out(
    const Tensor& input, const OptTensor& weight, const OptTensor& bias, bool train,
    double momentum, double eps, Tensor& out, Tensor& save_mean, Tensor& save_invstd) {
  return copy_out(batch_norm(input, weight, bias, {}, {}, train, momentum, eps), out, save_mean,
                  save_invstd);
}

// The newer training entry point; `reserve` is the cuDNN workspace, empty
// here as on the CPU.
std::tuple<Tensor, Tensor, Tensor, Tensor> batch_norm_with_update(
    const Tensor& input, const OptTensor& weight, const OptTensor& bias, Tensor& running_mean,
    Tensor& running_var, double momentum, double eps) {
  auto [out, save_mean, save_invstd] =
      batch_norm(input, weight, bias, running_mean, running_var, true, momentum, eps);
  return {out, save_mean, save_invstd, at::empty({0}, input.options().dtype(at::kByte))};
}

std::tuple<Tensor&, Tensor&, Tensor&, Tensor&> batch_norm_with_update_out(
    const Tensor& input, const OptTensor& weight, const OptTensor& bias, Tensor& running_mean,
    Tensor& running_var, double momentum, double eps, Tensor& out, Tensor& save_mean,
    Tensor& save_invstd, Tensor& reserve) {
  copy_out(batch_norm(input, weight, bias, running_mean, running_var, true, momentum, eps), out,
           save_mean, save_invstd);
  at::native::resize_output(reserve, {0});
  return {out, save_mean, save_invstd, reserve};
}

std::tuple<Tensor, Tensor, Tensor> new_batch_norm_backward(
    const Tensor& grad_out, const Tensor& input, const Tensor& weight,
    const OptTensor& running_mean, const OptTensor& running_var, const OptTensor& save_mean,
    const OptTensor& save_var, bool update, double eps, std::array<bool, 3> mask, const Tensor&) {
  return batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean,
                             save_var, update, eps, mask);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("native_batch_norm", batch_norm);
  m.impl("native_batch_norm.out", batch_norm_out);
  m.impl("_native_batch_norm_legit", batch_norm_legit);
  m.impl("_native_batch_norm_legit.out", batch_norm_legit_out);
  m.impl("_native_batch_norm_legit.no_stats", batch_norm_legit_no_stats);
  m.impl("_native_batch_norm_legit.no_stats_out", batch_norm_legit_no_stats_out);
  m.impl("_batch_norm_with_update", batch_norm_with_update);
  m.impl("_batch_norm_with_update.out", batch_norm_with_update_out);
  m.impl("batch_norm_update_stats", batch_norm_update_stats);
  m.impl("native_batch_norm_backward", batch_norm_backward);
  m.impl("batch_norm_backward", new_batch_norm_backward);
}

}  // namespace torchvulkan
