// _fused_rms_norm and its backward. rms_norm calls the fused op on every
// device (its composite form, five dispatches, serves only where no backend
// registers one), so this gives it one workgroup per row
// (shaders/norm/rms_norm.comp); the weight gradient is a column sum.
#include <ATen/OpMathType.h>
#include <ATen/native/layer_norm.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/sum.h>
#include <torch/library.h>

#include <limits>
#include <string>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan {
namespace {

using at::Tensor;

// Mirrors the push constants of shaders/norm/rms_norm.comp.
struct Args {
  uint64_t x, dy, weight, target, rstd, rows, row_length, eps;
};

void launch(const char* op, Args& args, const Tensor& like,
            const std::vector<rt::Access>& accesses) {
  if (args.rows == 0) return;
  rt::Device& dev = device_for(like);
  const rt::Kernel& kernel =
      dev.pipelines().get(std::string("rms_norm.") + op + "." + dtype_name(like.scalar_type()));
  dev.stream().dispatch(kernel, &args, sizeof(args), nullptr, 0, args.rows * kernel.workgroup_size,
                        accesses);
}

// The input's shape with the normalized dims kept as 1, as the composite form returns rstd.
std::vector<int64_t> stat_shape(const Tensor& input, size_t normalized_dims) {
  auto shape = input.sizes().vec();
  for (size_t i = 0; i < normalized_dims; ++i) shape[shape.size() - 1 - i] = 1;
  return shape;
}

std::tuple<Tensor, Tensor> fused_rms_norm(const Tensor& input_in, at::IntArrayRef normalized_shape,
                                          const std::optional<Tensor>& weight_opt,
                                          std::optional<double> eps_opt) {
  Tensor weight_in = weight_opt && weight_opt->defined() ? *weight_opt : Tensor();
  auto [rows, length] =
      at::native::_check_layer_norm_inputs(input_in, normalized_shape, weight_in, Tensor());
  TORCH_CHECK(at::isFloatingType(input_in.scalar_type()), "\"rms_norm\" not implemented for '",
              input_in.scalar_type(), "'");
  Tensor input = input_in.contiguous();
  c10::ScalarType type = input.scalar_type(), stat = at::toOpMathType(type);
  double eps = eps_opt.value_or(stat == at::kDouble ? std::numeric_limits<double>::epsilon()
                                                    : std::numeric_limits<float>::epsilon());
  Tensor weight = weight_in.defined() ? weight_in.to(type).contiguous() : Tensor();
  Tensor out = at::empty(input.sizes(), input.options());
  Tensor rstd = at::empty(stat_shape(input, normalized_shape.size()), input.options().dtype(stat));
  Args args{address_of(input),
            0,
            address_of(weight),
            address_of(out),
            address_of(rstd),
            static_cast<uint64_t>(rows),
            static_cast<uint64_t>(length),
            scalar_bits(eps, stat)};
  std::vector<rt::Access> accesses = {span_of(input, false), span_of(out, true),
                                      span_of(rstd, true)};
  if (weight.defined()) accesses.push_back(span_of(weight, false));
  if (input.numel() > 0) launch("forward", args, input, accesses);
  return {out, rstd};
}

std::tuple<Tensor, Tensor> fused_rms_norm_backward(const Tensor& grad_out, const Tensor& input_in,
                                                   at::IntArrayRef normalized_shape,
                                                   const Tensor& rstd_in,
                                                   const std::optional<Tensor>& weight_opt,
                                                   std::array<bool, 2> mask) {
  Tensor weight_in = weight_opt && weight_opt->defined() ? *weight_opt : Tensor();
  auto [rows, length] =
      at::native::_check_layer_norm_inputs(input_in, normalized_shape, weight_in, Tensor());
  Tensor input = input_in.contiguous();
  Tensor dy = grad_out.contiguous();
  c10::ScalarType type = input.scalar_type();
  Tensor rstd = rstd_in.to(at::toOpMathType(type)).contiguous();
  Tensor weight = weight_in.defined() ? weight_in.to(type).contiguous() : Tensor();
  Tensor grad_input, grad_weight;
  if (mask[0]) {
    grad_input = at::empty(input.sizes(), input.options());
    Args args{address_of(input),
              address_of(dy),
              address_of(weight),
              address_of(grad_input),
              address_of(rstd),
              static_cast<uint64_t>(rows),
              static_cast<uint64_t>(length),
              0};
    std::vector<rt::Access> accesses = {span_of(input, false), span_of(dy, false),
                                        span_of(rstd, false), span_of(grad_input, true)};
    if (weight.defined()) accesses.push_back(span_of(weight, false));
    if (input.numel() > 0) launch("backward", args, input, accesses);
  }
  if (mask[1] && weight_in.defined()) {
    // d(weight) = sum over rows of dy * x * rstd, accumulated in rstd's (float) type.
    std::vector<int64_t> row_dims(input.dim() - normalized_shape.size());
    for (size_t d = 0; d < row_dims.size(); ++d) row_dims[d] = static_cast<int64_t>(d);
    grad_weight = at::sum(at::mul(dy, at::mul(input, rstd)), row_dims).to(weight_in.scalar_type());
  }
  return {grad_input, grad_weight};
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_fused_rms_norm", fused_rms_norm);
  m.impl("_fused_rms_norm_backward", fused_rms_norm_backward);
}

}  // namespace torchvulkan
