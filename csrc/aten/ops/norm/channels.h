#pragma once
// What the batch and group norm kernels share: the input viewed as
// [N, C, HW] (shaders/norm/stats.glsl), and the dtype of the per-channel
// parameters and statistics.
#include <ATen/OpMathType.h>
#include <ATen/core/Tensor.h>
#include <ATen/native/cpu/mixed_data_type.h>
#include <c10/core/MemoryFormat.h>
#include <c10/util/accumulate.h>

#include <optional>
#include <vector>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan::norm {

// Mirrors Shape in shaders/norm/stats.glsl (element strides).
struct Shape {
  int64_t n, c, hw, groups;
  int64_t stride_n, stride_c, stride_hw;
};

// The input dense in its suggested memory format (contiguous or channels
// last), so that [N, C, HW] has one stride per dimension; gradients and
// outputs take the same layout.
struct Channels {
  at::Tensor x;
  at::MemoryFormat format;
  Shape shape;

  at::Tensor like(const at::Tensor& t) const { return t.contiguous(format); }
};

inline Channels channels(const at::Tensor& input, int64_t groups = 1) {
  TORCH_CHECK(input.dim() >= 2,
              "Expected an input with at least 2 dimensions (N, C, ...), but got ", input.dim());
  at::MemoryFormat format = input.suggest_memory_format();
  at::Tensor x = input.contiguous(format);
  int64_t n = x.size(0), c = x.size(1), hw = c10::multiply_integers(x.sizes().slice(2));
  bool last = format != at::MemoryFormat::Contiguous;
  Shape shape{n, c, hw, groups, c * hw, last ? 1 : hw, last ? c : 1};
  return {x, format, shape};
}

inline at::Tensor value(const std::optional<at::Tensor>& t) {
  return t && t->defined() ? *t : at::Tensor();
}
inline at::Tensor dense(const at::Tensor& t) {
  return t.defined() ? t.contiguous() : t;
}
inline void access(std::vector<rt::Access>& accesses, const at::Tensor& t, bool write) {
  if (t.defined() && t.numel() > 0) accesses.push_back(span_of(t, write));
}

// A float parameter as the raw bits of the kernels' math type for `input`.
inline uint64_t acc_bits(double value, const at::Tensor& input) {
  return scalar_bits(value, at::toOpMathType(input.scalar_type()));
}

// The parameters' dtype: the input's, or float for a 16-bit input with float
// parameters (PyTorch's CPU kernels take that "mixed" case, with its checks).
template <class... T>
c10::ScalarType param_dtype(const at::Tensor& input, const T&... params) {
  bool mixed = at::native::is_mixed_type(input, params...);
  if (mixed) at::native::check_mixed_data_type(input, params...);
  c10::ScalarType dtype = at::native::param_scalar_type(input, mixed);
  for (const at::Tensor* p : {&params...}) {
    TORCH_CHECK(!p->defined() || p->scalar_type() == dtype,
                "Expected every parameter to have dtype ", dtype, ", but got ", p->scalar_type());
  }
  return dtype;
}

}  // namespace torchvulkan::norm
