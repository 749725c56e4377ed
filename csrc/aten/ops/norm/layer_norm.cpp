// native_layer_norm and its backward, registered directly (the composite
// default is slower and numerically different): one workgroup per row
// (shaders/norm/layer_norm.comp, the forward holding rows that fit in
// registers); weight and bias gradients are column sums.
#include <ATen/ops/empty.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/sub.h>
#include <ATen/ops/sum.h>
#include <torch/library.h>

#include <algorithm>
#include <bit>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan {
namespace {

struct Args {
  uint64_t x, dy, weight, bias, target, mean, rstd, rows, row_length;
  double eps;
  uint32_t vector, pad;
};

void launch(const char* op, Args& args, const at::Tensor& like,
            const std::vector<rt::Access>& accesses) {
  if (args.rows == 0) return;
  rt::Device& dev = device_for(like);
  const rt::Kernel& kernel =
      dev.pipelines().get(std::string("layer_norm.") + op + "." + dtype_name(like.scalar_type()));
  dev.stream().dispatch(kernel, &args, sizeof(args), nullptr, 0, args.rows * kernel.workgroup_size,
                        accesses);
}

// The rows of `input` for normalized_shape: [rows, length], and the stats' shape.
std::pair<int64_t, int64_t> split(const at::Tensor& input, at::IntArrayRef normalized_shape) {
  int64_t axis = input.dim() - static_cast<int64_t>(normalized_shape.size());
  TORCH_CHECK(axis >= 0 && input.sizes().slice(axis).equals(normalized_shape),
              "Given normalized_shape=", normalized_shape, ", expected input with shape [*, ",
              c10::Join(", ", normalized_shape), "], but got input of size", input.sizes());
  int64_t length = c10::multiply_integers(normalized_shape);
  return {length == 0 ? 0 : input.numel() / length, length};
}

std::vector<int64_t> stat_shape(const at::Tensor& input, size_t normalized_dims) {
  auto shape = input.sizes().vec();
  for (size_t i = 0; i < normalized_dims; ++i) shape[shape.size() - 1 - i] = 1;
  return shape;
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> layer_norm(
    const at::Tensor& input_in, at::IntArrayRef normalized_shape,
    const std::optional<at::Tensor>& weight_opt, const std::optional<at::Tensor>& bias_opt,
    double eps) {
  auto [rows, length] = split(input_in, normalized_shape);
  at::Tensor input = input_in.contiguous();
  c10::ScalarType type = input.scalar_type();
  at::Tensor weight =
      weight_opt && weight_opt->defined() ? weight_opt->to(type).contiguous() : at::Tensor();
  at::Tensor bias =
      bias_opt && bias_opt->defined() ? bias_opt->to(type).contiguous() : at::Tensor();
  at::Tensor out = at::empty(input.sizes(), input.options());
  auto shape = stat_shape(input, normalized_shape.size());
  at::Tensor mean = at::empty(shape, input.options());
  at::Tensor rstd = at::empty(shape, input.options());
  Args args{address_of(input),
            0,
            address_of(weight),
            address_of(bias),
            address_of(out),
            address_of(mean),
            address_of(rstd),
            static_cast<uint64_t>(rows),
            static_cast<uint64_t>(length),
            eps};
  // Vector steps of VEC elements (shaders/compile.py: 16 bytes, at least 4)
  // where every row, the weight and the bias start 16-byte aligned.
  int64_t vec = std::max<int64_t>(4, 16 / static_cast<int64_t>(input.element_size()));
  args.vector = (args.x | args.weight | args.bias | args.target) % 16 == 0 && length % vec == 0;
  std::vector<rt::Access> accesses = {span_of(input, false), span_of(out, true),
                                      span_of(mean, true), span_of(rstd, true)};
  if (weight.defined()) accesses.push_back(span_of(weight, false));
  if (bias.defined()) accesses.push_back(span_of(bias, false));
  launch("forward", args, input, accesses);
  return {out, mean, rstd};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> layer_norm_backward(
    const at::Tensor& grad_out, const at::Tensor& input_in, at::IntArrayRef normalized_shape,
    const at::Tensor& mean, const at::Tensor& rstd, const std::optional<at::Tensor>& weight_opt,
    const std::optional<at::Tensor>& bias_opt, std::array<bool, 3> mask) {
  auto [rows, length] = split(input_in, normalized_shape);
  at::Tensor input = input_in.contiguous();
  at::Tensor dy = grad_out.contiguous();
  c10::ScalarType type = input.scalar_type();
  bool has_weight = weight_opt && weight_opt->defined();
  at::Tensor weight = has_weight ? weight_opt->to(type).contiguous() : at::Tensor();
  at::Tensor m = mean.to(type).contiguous(), r = rstd.to(type).contiguous();
  at::Tensor grad_input, grad_weight, grad_bias;
  if (mask[0]) {
    grad_input = at::empty(input.sizes(), input.options());
    Args args{address_of(input),
              address_of(dy),
              address_of(weight),
              0,
              address_of(grad_input),
              address_of(m),
              address_of(r),
              static_cast<uint64_t>(rows),
              static_cast<uint64_t>(length),
              0.0,
              0,
              0};
    std::vector<rt::Access> accesses = {span_of(input, false), span_of(dy, false),
                                        span_of(m, false), span_of(r, false),
                                        span_of(grad_input, true)};
    if (weight.defined()) accesses.push_back(span_of(weight, false));
    launch("backward", args, input, accesses);
  }
  // d(weight) = sum over rows of dy * xhat; d(bias) = sum over rows of dy.
  std::vector<int64_t> row_dims(input.dim() - normalized_shape.size());
  for (size_t d = 0; d < row_dims.size(); ++d) row_dims[d] = static_cast<int64_t>(d);
  if (mask[1] && has_weight) {
    at::Tensor xhat = at::mul(at::sub(input, m), r);
    grad_weight = at::sum(at::mul(dy, xhat), row_dims)
                      .to(weight_opt->scalar_type())
                      .reshape(weight_opt->sizes());
  }
  if (mask[2] && bias_opt && bias_opt->defined()) {
    grad_bias = at::sum(dy, row_dims).to(bias_opt->scalar_type()).reshape(bias_opt->sizes());
  }
  return {grad_input, grad_weight, grad_bias};
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("native_layer_norm", layer_norm);
  m.impl("native_layer_norm_backward", layer_norm_backward);
}

}  // namespace torchvulkan
