// var, std, var_mean and std_mean with a correction (what var.dim, std(unbiased),
// ... reach through their composites): ATen's reduction helpers check the
// dims and shape the outputs, as PyTorch's own kernel does; welford() computes
// the statistics in one pass.
#include <ATen/native/ReduceOpsUtils.h>
#include <ATen/ops/empty.h>
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
  TORCH_CHECK(!at::isComplexType(self.scalar_type()), "torchvulkan: ", name,
              " of complex tensors is not supported");
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
  at::Tensor result = empty_result(self), mean = empty_result(self);
  std_var_mean_out("var_mean", result, mean, self, dim, correction, keepdim, false);
  return {result, mean};
}
std::tuple<at::Tensor, at::Tensor> std_mean(const at::Tensor& self, Dims dim,
                                            const Correction& correction, bool keepdim) {
  at::Tensor result = empty_result(self), mean = empty_result(self);
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
