// The fused LSTM and GRU cells that PyTorch's nn.LSTM / nn.GRU call on every
// non-CPU device (ATen's RNN.cpp takes the fused path for CUDA, XPU and
// PrivateUse1 alike), with the math and workspace layout of CUDA's kernels,
// written as native elementwise ops: without them nn.LSTM failed ("Could not
// run 'aten::_thnn_fused_lstm_cell' ... 'CPU' backend": the CPU has no kernel
// to fall back to).
#include <ATen/TensorOperators.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/sigmoid.h>
#include <ATen/ops/tanh.h>
#include <ATen/ops/zeros_like.h>
#include <torch/library.h>

namespace torchvulkan {
namespace {

using at::Tensor;

// gates + the biases (absent ones left out), split into `n` [batch, hidden] chunks.
std::vector<Tensor> gate_chunks(const Tensor& gates, const std::optional<Tensor>& bias, int64_t n) {
  Tensor sum = bias && bias->defined() ? gates + *bias : gates;
  return sum.chunk(n, 1);
}

// LSTM: i, f, o = sigmoid, g = tanh of input_gates + hidden_gates (+ biases);
// cy = f cx + i g, hy = o tanh(cy); the workspace holds [i, f, g, o].
std::tuple<Tensor, Tensor, Tensor> lstm_cell(const Tensor& input_gates, const Tensor& hidden_gates,
                                             const Tensor& cx,
                                             const std::optional<Tensor>& input_bias,
                                             const std::optional<Tensor>& hidden_bias) {
  TORCH_CHECK(input_gates.sizes() == hidden_gates.sizes() && input_gates.size(1) == 4 * cx.size(1),
              "_thnn_fused_lstm_cell: expected gates of shape [batch, 4 * hidden], got ",
              input_gates.sizes(), " and ", hidden_gates.sizes(), " for cx ", cx.sizes());
  auto in = gate_chunks(input_gates, input_bias, 4),
       hid = gate_chunks(hidden_gates, hidden_bias, 4);
  Tensor i = at::sigmoid(in[0] + hid[0]), f = at::sigmoid(in[1] + hid[1]);
  Tensor g = at::tanh(in[2] + hid[2]), o = at::sigmoid(in[3] + hid[3]);
  Tensor cy = f * cx + i * g;
  Tensor hy = o * at::tanh(cy);
  return {hy, cy, at::cat({i, f, g, o}, 1)};
}

std::tuple<Tensor, Tensor, Tensor> lstm_cell_backward(const std::optional<Tensor>& grad_hy,
                                                      const std::optional<Tensor>& grad_cy,
                                                      const Tensor& cx, const Tensor& cy,
                                                      const Tensor& workspace, bool has_bias) {
  bool has_hy = grad_hy && grad_hy->defined(), has_cy = grad_cy && grad_cy->defined();
  if (!has_hy && !has_cy) return {Tensor(), Tensor(), Tensor()};
  auto gates = workspace.chunk(4, 1);
  const Tensor &i = gates[0], &f = gates[1], &g = gates[2], &o = gates[3];
  Tensor tanh_cy = at::tanh(cy);
  Tensor go = has_hy ? *grad_hy : at::zeros_like(cy);
  // d cy: through hy = o tanh(cy), plus the gradient arriving at cy.
  Tensor gc = go * o * (1 - tanh_cy * tanh_cy);
  if (has_cy) gc = gc + *grad_cy;
  Tensor grad_gates = at::cat({gc * g * i * (1 - i), gc * cx * f * (1 - f), gc * i * (1 - g * g),
                               go * tanh_cy * o * (1 - o)},
                              1);
  Tensor grad_bias = has_bias ? grad_gates.sum(0) : Tensor();
  return {grad_gates, gc * f, grad_bias};
}

// GRU: r, z = sigmoid, n = tanh(input_n + r hidden_n) of input_gates and
// hidden_gates (+ biases); hy = n + z (hx - n); the workspace holds
// [r, z, n, hx, hidden_n].
std::tuple<Tensor, Tensor> gru_cell(const Tensor& input_gates, const Tensor& hidden_gates,
                                    const Tensor& hx, const std::optional<Tensor>& input_bias,
                                    const std::optional<Tensor>& hidden_bias) {
  TORCH_CHECK(input_gates.sizes() == hidden_gates.sizes() && input_gates.size(1) == 3 * hx.size(1),
              "_thnn_fused_gru_cell: expected gates of shape [batch, 3 * hidden], got ",
              input_gates.sizes(), " and ", hidden_gates.sizes(), " for hx ", hx.sizes());
  auto in = gate_chunks(input_gates, input_bias, 3),
       hid = gate_chunks(hidden_gates, hidden_bias, 3);
  Tensor r = at::sigmoid(in[0] + hid[0]), z = at::sigmoid(in[1] + hid[1]);
  Tensor n = at::tanh(in[2] + r * hid[2]);
  Tensor hy = n + z * (hx - n);
  return {hy, at::cat({r, z, n, hx, hid[2]}, 1)};
}

std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor> gru_cell_backward(const Tensor& grad_hy,
                                                                     const Tensor& workspace,
                                                                     bool has_bias) {
  auto parts = workspace.chunk(5, 1);
  const Tensor &r = parts[0], &z = parts[1], &n = parts[2], &hx = parts[3], &hn = parts[4];
  Tensor gz = grad_hy * (hx - n) * (1 - z) * z;
  Tensor gn = grad_hy * (1 - z) * (1 - n * n);
  Tensor gr = gn * hn * (1 - r) * r;
  Tensor grad_input_gates = at::cat({gr, gz, gn}, 1);
  Tensor grad_hidden_gates = at::cat({gr, gz, gn * r}, 1);
  Tensor grad_input_bias = has_bias ? grad_input_gates.sum(0) : Tensor();
  Tensor grad_hidden_bias = has_bias ? grad_hidden_gates.sum(0) : Tensor();
  return {grad_input_gates, grad_hidden_gates, grad_hy * z, grad_input_bias, grad_hidden_bias};
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_thnn_fused_lstm_cell", lstm_cell);
  m.impl("_thnn_fused_lstm_cell_backward_impl", lstm_cell_backward);
  m.impl("_thnn_fused_gru_cell", gru_cell);
  m.impl("_thnn_fused_gru_cell_backward", gru_cell_backward);
}

}  // namespace torchvulkan
