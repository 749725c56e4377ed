// The matrix-product launcher: picks a kernel tier and passes the operands'
// strides, so transposed and strided inputs are consumed without copies.
#include "aten/ops/matmul/gemm.h"

#include <ATen/ops/empty.h>

#include <vector>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan {
namespace {

constexpr int64_t kTile = 64;  // gemm_tiled.comp's output tile

// (batch, row, col) strides of a 2-D or 3-D tensor; a 2-D one repeats per batch.
std::array<int64_t, 3> strides3(const at::Tensor& t) {
  if (t.dim() == 3) return {t.stride(0), t.stride(1), t.stride(2)};
  return {0, t.stride(0), t.stride(1)};
}

}  // namespace

void gemm(const at::Tensor& a, const at::Tensor& b, const at::Tensor& out, const at::Tensor& bias_in,
          const c10::Scalar& alpha, const c10::Scalar& beta, Epilogue epilogue) {
  if (out.numel() == 0) return;
  bool batched = out.dim() == 3;
  int64_t batches = batched ? out.size(0) : 1;
  int64_t M = out.size(-2), N = out.size(-1), K = a.size(-1);
  c10::ScalarType type = out.scalar_type();
  at::Tensor bias = bias_in.defined() ? bias_in.expand(out.sizes()) : bias_in;

  std::vector<int64_t> meta = {reinterpret_cast<int64_t>(a.const_data_ptr()),
                               reinterpret_cast<int64_t>(b.const_data_ptr()),
                               reinterpret_cast<int64_t>(out.data_ptr()),
                               bias.defined() ? reinterpret_cast<int64_t>(bias.const_data_ptr()) : 0,
                               M, N, K, batches};
  for (const at::Tensor* t : {&a, &b, &out}) {
    auto s = strides3(*t);
    meta.insert(meta.end(), s.begin(), s.end());
  }
  auto bias_strides = bias.defined() ? strides3(bias) : std::array<int64_t, 3>{0, 0, 0};
  meta.insert(meta.end(), bias_strides.begin(), bias_strides.end());
  // alpha and beta in the accumulator type: double for float64, float for other floats.
  c10::ScalarType acc = c10::isFloatingType(type) && type != c10::kDouble ? c10::kFloat : type;
  meta.push_back(static_cast<int64_t>(scalar_bits(alpha, acc)));
  meta.push_back(static_cast<int64_t>(scalar_bits(bias.defined() ? beta : c10::Scalar(0), acc)));
  meta.push_back(static_cast<int64_t>(epilogue));

  rt::Device& dev = device_for(out);
  const rt::Kernel& kernel = dev.pipelines().get(std::string("gemm_tiled.gemm.") + dtype_name(type));
  std::vector<rt::Access> accesses = {span_of(a, false), span_of(b, false), span_of(out, true)};
  if (bias.defined()) accesses.push_back(span_of(bias, false));
  uint64_t groups = static_cast<uint64_t>(batches * ((M + kTile - 1) / kTile) * ((N + kTile - 1) / kTile));
  uint64_t args = 0;  // the kernel's only push constant: the parameter block's address
  dev.stream().dispatch(kernel, &args, sizeof(args), meta.data(), static_cast<uint32_t>(meta.size() * 8),
                        groups * kernel.workgroup_size, accesses);
}

}  // namespace torchvulkan
