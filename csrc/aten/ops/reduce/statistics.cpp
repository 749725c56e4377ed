// var, std, var_mean and std_mean with a correction (what var.dim, std(unbiased),
// ... reach through their composites): ATen's reduction helpers check the
// dims and shape the outputs, as PyTorch's own kernel does; welford() computes
// the statistics in one pass.
#include <ATen/native/ReduceOpsUtils.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/add.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/imag.h>
#include <ATen/ops/real.h>
#include <ATen/ops/sqrt.h>
#include <ATen/ops/view_as_real.h>
#include <torch/library.h>

#include <limits>
#include <optional>
#include <tuple>

#include "aten/ops/reduce/reduce.h"

namespace torchvulkan {
namespace {

using Dims = at::OptionalIntArrayRef;
using Correction = std::optional<c10::Scalar>;

void check(const char* name, const at::Tensor& self) {
  TORCH_CHECK(self.layout() == at::Layout::Strided,
              "std and var only supports strided layout, got: ", self.layout());
  TORCH_CHECK(at::isFloatingType(self.scalar_type()) || at::isComplexType(self.scalar_type()),
              "std and var only support floating point and complex dtypes");
}

// The divisor N - correction <= 0 gives inf or NaN; PyTorch warns about it.
void warn_degrees_of_freedom(const char* name, const at::TensorIteratorBase& iter,
                             double correction) {
  int64_t n = iter.num_output_elements() == 0 ? 0 : iter.numel() / iter.num_output_elements();
  if (static_cast<double>(n) - correction <= 0) {
    TORCH_WARN(name,
               "(): degrees of freedom is <= 0. Correction should be strictly less than the "
               "reduction factor "
               "(input numel divided by output numel).");
  }
}

at::Tensor& std_var_out(const char* name, at::Tensor& result, const at::Tensor& self, Dims dim,
                        const Correction& correction_opt, bool keepdim, bool take_sqrt) {
  check(name, self);
  if (at::isComplexType(self.scalar_type())) {
    // As PyTorch defines it: the variance of the real parts plus that of the
    // imaginary parts, each a real reduction of a strided view.
    at::Tensor real = at::empty({0}, result.options()), imag = at::empty({0}, result.options());
    std_var_out(name, real, at::real(self), dim, correction_opt, keepdim, false);
    std_var_out(name, imag, at::imag(self), dim, correction_opt, keepdim, false);
    at::add_out(result, real, imag);
    return take_sqrt ? at::sqrt_out(result, result) : result;
  }
  double correction = correction_opt.value_or(1).toDouble();
  c10::ScalarType dtype = at::native::get_dtype_from_result(result, {});
  auto iter = at::native::make_reduction(name, result, self, dim, keepdim, dtype);
  TORCH_CHECK(at::canCast(self.scalar_type(), result.scalar_type()), "result type ",
              self.scalar_type(), " can't be cast to the desired output type ",
              result.scalar_type());
  warn_degrees_of_freedom(name, iter, correction);
  if (iter.numel() == 0) {
    result.fill_(std::numeric_limits<double>::quiet_NaN());
  } else {
    welford(iter, correction, take_sqrt);
  }
  return result;
}

std::tuple<at::Tensor&, at::Tensor&> std_var_mean_out(const char* name, at::Tensor& result,
                                                      at::Tensor& mean, const at::Tensor& self,
                                                      Dims dim, const Correction& correction_opt,
                                                      bool keepdim, bool take_sqrt) {
  check(name, self);
  if (at::isComplexType(self.scalar_type())) {
    // The variance as in std_var_out; the mean is complex, its parts the
    // parts' means.
    at::Tensor parts[2][2];  // [real, imag][variance, mean]
    for (int p = 0; p < 2; ++p) {
      for (at::Tensor& t : parts[p]) t = at::empty({0}, result.options());
      std_var_mean_out(name, parts[p][0], parts[p][1], p == 0 ? at::real(self) : at::imag(self),
                       dim, correction_opt, keepdim, false);
    }
    at::add_out(result, parts[0][0], parts[1][0]);
    if (take_sqrt) at::sqrt_out(result, result);
    at::native::resize_output(mean, parts[0][1].sizes());
    at::view_as_real(mean).select(-1, 0).copy_(parts[0][1]);
    at::view_as_real(mean).select(-1, 1).copy_(parts[1][1]);
    return {result, mean};
  }
  double correction = correction_opt.value_or(1).toDouble();
  c10::ScalarType dtype = at::native::get_dtype_from_result(result, {});
  auto iter = at::native::make_reduction(name, result, mean, self, dim, keepdim, dtype);
  warn_degrees_of_freedom(name, iter, correction);
  if (iter.numel() == 0) {
    result.fill_(std::numeric_limits<double>::quiet_NaN());
    mean.fill_(std::numeric_limits<double>::quiet_NaN());
  } else {
    welford(iter, correction, take_sqrt);
  }
  return {result, mean};
}

at::Tensor empty_result(const at::Tensor& self) {
  return at::empty({0}, self.options().dtype(c10::toRealValueType(self.scalar_type())));
}

at::Tensor var_correction(const at::Tensor& self, Dims dim, const Correction& correction,
                          bool keepdim) {
  at::Tensor result = empty_result(self);
  return std_var_out("var", result, self, dim, correction, keepdim, false);
}
at::Tensor& var_correction_out(const at::Tensor& self, Dims dim, const Correction& correction,
                               bool keepdim, at::Tensor& out) {
  return std_var_out("var", out, self, dim, correction, keepdim, false);
}
at::Tensor std_correction(const at::Tensor& self, Dims dim, const Correction& correction,
                          bool keepdim) {
  at::Tensor result = empty_result(self);
  return std_var_out("std", result, self, dim, correction, keepdim, true);
}
at::Tensor& std_correction_out(const at::Tensor& self, Dims dim, const Correction& correction,
                               bool keepdim, at::Tensor& out) {
  return std_var_out("std", out, self, dim, correction, keepdim, true);
}
std::tuple<at::Tensor, at::Tensor> var_mean(const at::Tensor& self, Dims dim,
                                            const Correction& correction, bool keepdim) {
  at::Tensor result = empty_result(self), mean = at::empty({0}, self.options());
  std_var_mean_out("var_mean", result, mean, self, dim, correction, keepdim, false);
  return {result, mean};
}
std::tuple<at::Tensor, at::Tensor> std_mean(const at::Tensor& self, Dims dim,
                                            const Correction& correction, bool keepdim) {
  at::Tensor result = empty_result(self), mean = at::empty({0}, self.options());
  std_var_mean_out("std_mean", result, mean, self, dim, correction, keepdim, true);
  return {result, mean};
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("var.correction", var_correction);
  m.impl("var.correction_out", var_correction_out);
  m.impl("std.correction", std_correction);
  m.impl("std.correction_out", std_correction_out);
  m.impl("var_mean.correction", var_mean);
  m.impl("std_mean.correction", std_mean);
}

}  // namespace torchvulkan
