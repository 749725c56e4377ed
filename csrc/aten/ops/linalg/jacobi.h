#pragma once
// One launch of shaders/linalg/jacobi.comp (eigh.cpp, svd.cpp).
#include <ATen/core/Tensor.h>

namespace torchvulkan::linalg {

// jacobi.<op> ("eigh" or "svd") on `a` ([B, m, n], contiguous, overwritten)
// with the rotations accumulated in `v` ([B, n, n]; undefined: not kept).
void jacobi(const char* op, const at::Tensor& a, const at::Tensor& v);

}  // namespace torchvulkan::linalg
