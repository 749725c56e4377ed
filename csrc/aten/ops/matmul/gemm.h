#pragma once
#include <ATen/core/Tensor.h>

#include <map>
#include <string>

namespace torchvulkan {

enum class Epilogue { none = 0, relu = 1, gelu = 2 };

// out = act(alpha * a @ b + beta * bias) for 2-D [M, K] x [K, N] or batched
// 3-D operands, any strides; `bias` (optional) is broadcast to out's shape.
// a and b share out's dtype, or are float16 or bfloat16 for a float32 out
// (the sums unrounded), or for an int32 out a is int8 or uint8 and b int8
// (int32 sums, torch._int_mm's).
void gemm(const at::Tensor& a, const at::Tensor& b, const at::Tensor& out, const at::Tensor& bias,
          const c10::Scalar& alpha, const c10::Scalar& beta, Epilogue epilogue = Epilogue::none);

// Launches per kernel tier so far ("tiled", "coopmat"), for seeing which ran.
std::map<std::string, int64_t> gemm_tier_counts();

// The last q128 or qt128 product's clock stamps (TORCHVULKAN_GEMM_TILE=q128
// or qt128: gemm_coop_phases, gemm_tiled_phases), [workgroups, 6] int64 on
// its device: the device clock at the workgroup's start, the SM's cycle
// counter at its start, once step 0 is staged, after the K loop and after
// the epilogue, the device clock at its end (benchmark/coop_phases.py reads
// them). Undefined before one ran.
at::Tensor gemm_phase_stamps();

}  // namespace torchvulkan
