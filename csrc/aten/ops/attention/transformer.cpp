// The inference fast paths of nn.MultiheadAttention and
// nn.TransformerEncoderLayer (eval mode under no_grad), as ATen defines them,
// written with native ops:
//   _masked_softmax(x, mask): softmax over dim where mask is false; a row
//     masked whole gives NaN, as on the CPU (mask types: 0 an [L, L]
//     attention mask, 1 a [B, L] key padding mask, 2 x's own shape), and its
//     backward;
//   _native_multi_head_attention: q, k, v = x W_qkv^T + b_qkv, split in
//     heads, q scaled by 1/sqrt(head dim); softmax(q k^T) v, heads joined,
//     then the output projection; the weights (averaged over heads) on demand;
//   _transformer_encoder_layer_fwd: attention and the feed-forward block
//     (linear, ReLU or GELU, linear), each with its residual and layer norm
//     after it (or before, norm_first).
#include <ATen/TensorOperators.h>
#include <ATen/ops/_addmm_activation.h>
#include <ATen/ops/_native_multi_head_attention.h>
#include <ATen/ops/_softmax_backward_data.h>
#include <ATen/ops/addmm.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/layer_norm.h>
#include <ATen/ops/linear.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/softmax.h>
#include <torch/library.h>

#include <cmath>
#include <limits>
#include <optional>
#include <tuple>

namespace torchvulkan {
namespace {

at::Tensor masked_softmax(const at::Tensor& x, const at::Tensor& mask_in,
                          std::optional<int64_t> dim_in, std::optional<int64_t> mask_type) {
  TORCH_CHECK(mask_in.scalar_type() == at::kBool, "Mask should be a boolean tensor");
  int64_t dim = c10::maybe_wrap_dim(dim_in.value_or(x.dim() - 1), x.dim());
  at::Tensor mask = mask_in;
  int64_t type = mask.dim() == 2 && x.dim() == 4 ? mask_type.value_or(2) : 2;
  if (type == 1) {
    TORCH_CHECK(x.size(0) == mask.size(0) && x.size(2) == mask.size(1),
                "For mask_type == 1 mask shape should be (B, L)");
    mask = mask.reshape({x.size(0), 1, 1, -1});
  } else if (type == 0) {
    TORCH_CHECK(x.size(2) == mask.size(0) && x.size(2) == mask.size(1),
                "For mask_type == 0 mask shape should be (L, L)");
  } else {
    TORCH_CHECK(x.sizes() == mask.sizes(), "Mask shape should match input. mask: ", mask.sizes(),
                " input: ", x.sizes());
  }
  return at::softmax(
      x.masked_fill(mask.expand(x.sizes()), -std::numeric_limits<double>::infinity()), dim);
}

// Softmax's gradient over the entries left unmasked, zero where masked:
//   grad_x = mask ? 0 : y * (grad - sum over unmasked of grad * y).
// Masked entries of grad and y are zeroed first, so that they add nothing to
// the sum even where they are not finite, and in the result, which the CPU
// keeps zero even where a row's sum is not finite. The mask has grad's shape,
// as on the CPU and CUDA: autograd passes the forward's mask, not its type.
at::Tensor masked_softmax_backward(const at::Tensor& grad, const at::Tensor& output,
                                   const at::Tensor& mask, std::optional<int64_t> dim_in) {
  TORCH_CHECK(grad.sizes() == mask.sizes(), "Mask shape should match grad shape");
  TORCH_CHECK(mask.scalar_type() == at::kBool, "Mask should be a boolean tensor");
  int64_t dim = c10::maybe_wrap_dim(dim_in.value_or(output.dim() - 1), grad.dim());
  return at::_softmax_backward_data(grad.masked_fill(mask, 0), output.masked_fill(mask, 0), dim,
                                    grad.scalar_type())
      .masked_fill_(mask, 0);
}

// [B, T, H * d] -> [B, H, T, d].
at::Tensor heads(const at::Tensor& t, int64_t num_head) {
  return t.view({t.size(0), t.size(1), num_head, -1}).transpose(1, 2);
}

std::tuple<at::Tensor, at::Tensor> multi_head_attention(
    const at::Tensor& query, const at::Tensor& key, const at::Tensor& value, int64_t embed_dim,
    int64_t num_head, const at::Tensor& qkv_weight, const at::Tensor& qkv_bias,
    const at::Tensor& proj_weight, const at::Tensor& proj_bias,
    const std::optional<at::Tensor>& mask, bool need_weights, bool average_attn_weights,
    std::optional<int64_t> mask_type) {
  int64_t D = embed_dim;
  TORCH_CHECK(query.dim() == 3, "expected 3-D `query`, got ", query.dim(), "-D tensor");
  TORCH_CHECK(query.size(2) == D, "passed-in embed_dim ", D, " didn't match last dim of query ",
              query.size(2));
  TORCH_CHECK(key.dim() == 3, "expected 3-D `key`, got ", key.dim(), "-D tensor");
  TORCH_CHECK(value.dim() == 3, "expected 3-D `value`, got ", value.dim(), "-D tensor");
  TORCH_CHECK(query.sizes() == key.sizes() && key.sizes() == value.sizes(),
              "expected `query`/`key`/`value` shapes to match");
  TORCH_CHECK(qkv_weight.dim() == 2, "expected 2-D `qkv_weight`, got ", qkv_weight.dim(),
              "-D tensor");
  TORCH_CHECK(qkv_weight.size(0) == 3 * D, "expected `qkv_weight` first dim to be 3x embed_dim");
  TORCH_CHECK(qkv_weight.size(1) == D, "expected `qkv_weight` second dim to be embed_Dim");
  TORCH_CHECK(qkv_bias.dim() == 1 && qkv_bias.size(0) == 3 * D,
              "expected `qkv_bias` to be 1-D of size 3 x embed_dim");
  TORCH_CHECK(num_head > 0 && D % num_head == 0, "`embed_dim` must divide evenly by `num_heads`");
  if (query.numel() == 0) return {at::empty_like(query), at::Tensor()};

  at::Tensor q, k, v;
  if (query.is_same(key) && key.is_same(value)) {
    auto qkv = at::linear(query, qkv_weight, qkv_bias).chunk(3, -1);
    q = qkv[0], k = qkv[1], v = qkv[2];
  } else {
    auto w = qkv_weight.chunk(3, 0);
    auto b = qkv_bias.chunk(3, 0);
    q = at::linear(query, w[0], b[0]);
    k = at::linear(key, w[1], b[1]);
    v = at::linear(value, w[2], b[2]);
  }
  double scale = 1.0 / std::sqrt(static_cast<double>(D / num_head));
  at::Tensor scores = at::matmul(heads(q, num_head) * scale, heads(k, num_head).transpose(-2, -1));
  at::Tensor p =
      mask ? masked_softmax(scores, mask->to(at::kBool), -1, mask_type) : at::softmax(scores, -1);
  at::Tensor context = at::matmul(p, heads(v, num_head)).transpose(1, 2).reshape(query.sizes());
  at::Tensor out = at::linear(context, proj_weight, proj_bias);
  if (!need_weights) return {out, at::Tensor()};
  return {out, average_attn_weights ? p.sum(1) / static_cast<double>(num_head) : p};
}

at::Tensor encoder_layer(const at::Tensor& src, int64_t embed_dim, int64_t num_heads,
                         const at::Tensor& qkv_weight, const at::Tensor& qkv_bias,
                         const at::Tensor& proj_weight, const at::Tensor& proj_bias, bool use_gelu,
                         bool norm_first, double eps, const at::Tensor& norm_weight_1,
                         const at::Tensor& norm_bias_1, const at::Tensor& norm_weight_2,
                         const at::Tensor& norm_bias_2, const at::Tensor& ffn_weight_1,
                         const at::Tensor& ffn_bias_1, const at::Tensor& ffn_weight_2,
                         const at::Tensor& ffn_bias_2, const std::optional<at::Tensor>& mask,
                         std::optional<int64_t> mask_type) {
  if (src.numel() == 0) return src.clone();
  auto norm = [&](const at::Tensor& x, const at::Tensor& w, const at::Tensor& b) {
    return at::layer_norm(x, {embed_dim}, w, b, eps);
  };
  at::Tensor x = norm_first ? norm(src, norm_weight_1, norm_bias_1) : src;
  x = std::get<0>(multi_head_attention(x, x, x, embed_dim, num_heads, qkv_weight, qkv_bias,
                                       proj_weight, proj_bias, mask, false, true, mask_type));
  x = x + src;
  if (!norm_first) x = norm(x, norm_weight_1, norm_bias_1);
  at::Tensor residual = x;
  if (norm_first) x = norm(x, norm_weight_2, norm_bias_2);
  at::Tensor rows = x.reshape({-1, x.size(-1)});
  at::Tensor hidden = at::_addmm_activation(ffn_bias_1, rows, ffn_weight_1.t(), 1, 1, use_gelu);
  x = at::addmm(ffn_bias_2, hidden, ffn_weight_2.t()).view(residual.sizes()) + residual;
  return norm_first ? x : norm(x, norm_weight_2, norm_bias_2);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_masked_softmax", masked_softmax);
  m.impl("_masked_softmax_backward", masked_softmax_backward);
  m.impl("_native_multi_head_attention", multi_head_attention);
  m.impl("_transformer_encoder_layer_fwd", encoder_layer);
}

}  // namespace torchvulkan
