#pragma once
// out= forms of the older (THNN-era) ops whose functional form is native:
// their CPU kernels size `out` like the result and raise when it has another
// dtype (they read it as the input's), and so does this.
#include <ATen/core/Tensor.h>
#include <ATen/native/Resize.h>

namespace torchvulkan {

// `result` written into `out`. A resized out takes a dense result's strides
// (a channels-last result stays channels-last), as structured ops' out= do.
inline at::Tensor& write_out(const at::Tensor& result, at::Tensor& out) {
  TORCH_CHECK(out.scalar_type() == result.scalar_type(), "expected scalar type ",
              result.scalar_type(), " but found ", out.scalar_type());
  if (at::native::resize_output(out, result.sizes()) && result.is_non_overlapping_and_dense())
    out.as_strided_(result.sizes(), result.strides());
  return out.copy_(result);
}

}  // namespace torchvulkan
