// The distributions as ATen's DispatchStub kernels for the vulkan device:
// ATen's own uniform_, normal_, bernoulli_, random_, ... (Distributions.cpp,
// DistributionTemplates.h) check the arguments (from <= to, std >= 0, p in
// [0, 1], bounds per dtype), skip empty tensors, view complex ones as real and
// build the nullary TensorIterator, as they do for CUDA; these kernels draw the
// samples, through the iterator's strided output.
#include <ATen/Dispatch_v2.h>
#include <ATen/ExpandUtils.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/ops/bernoulli_native.h>
#include <ATen/ops/cauchy_native.h>
#include <ATen/ops/exponential_native.h>
#include <ATen/ops/geometric_native.h>
#include <ATen/ops/log_normal_native.h>
#include <ATen/ops/normal_native.h>
#include <ATen/ops/random_native.h>
#include <ATen/ops/uniform_native.h>
#include <torch/library.h>

#include <cmath>
#include <limits>

#include "aten/launch.h"
#include "aten/ops/random/sample.h"

namespace torchvulkan {
namespace {

using random::launch;
using random::real_bits;

void uniform_kernel(at::TensorIteratorBase& iter, double from, double to,
                    std::optional<at::Generator> gen) {
  // The bounds in the output dtype first, as the CPU rounds them.
  c10::ScalarType dtype = iter.dtype(0);
  launch("random.uniform", iter, gen, scalar_bits(from, dtype), scalar_bits(to, dtype));
}

void normal_kernel(const at::TensorBase& self, double mean, double std,
                   std::optional<at::Generator> gen) {
  auto iter = at::TensorIterator::borrowing_nullary_op(self);
  c10::ScalarType dtype = self.scalar_type();
  launch("random.normal", iter, gen, real_bits(mean, dtype), real_bits(std, dtype));
}

void log_normal_kernel(at::TensorIteratorBase& iter, double mean, double std,
                       std::optional<at::Generator> gen) {
  c10::ScalarType dtype = iter.dtype(0);
  launch("random.log_normal", iter, gen, real_bits(mean, dtype), real_bits(std, dtype));
}

void exponential_kernel(at::TensorIteratorBase& iter, double lambda,
                        std::optional<at::Generator> gen) {
  c10::ScalarType dtype = iter.dtype(0);
  TORCH_CHECK(at::isFloatingType(dtype),
              "Exponential distribution is a continuous probability distribution. dtype must be "
              "a floating point but you specified ",
              dtype);
  launch("random.exponential", iter, gen, real_bits(lambda, dtype));
}

void cauchy_kernel(at::TensorIteratorBase& iter, double median, double sigma,
                   std::optional<at::Generator> gen) {
  c10::ScalarType dtype = iter.dtype(0);
  launch("random.cauchy", iter, gen, real_bits(median, dtype), real_bits(sigma, dtype));
}

void geometric_kernel(at::TensorIteratorBase& iter, double p, std::optional<at::Generator> gen) {
  launch("random.geometric", iter, gen, real_bits(std::log1p(-p), iter.dtype(0)));
}

void bernoulli_scalar_kernel(const at::TensorBase& self, double p,
                             std::optional<at::Generator> gen) {
  auto iter = at::TensorIterator::borrowing_nullary_op(self);
  launch("random.bernoulli_scalar", iter, gen, random::threshold(p));
}

void bernoulli_tensor_kernel(const at::TensorBase& self, const at::TensorBase& p_,
                             std::optional<at::Generator> gen) {
  TORCH_CHECK_NOT_IMPLEMENTED(at::isFloatingType(p_.scalar_type()),
                              "\"bernoulli_tensor_vulkan_p_\" not implemented for '",
                              p_.scalar_type(), "'");
  at::Tensor out(self);
  // The kernel reads float probabilities from the device (p may be a CPU tensor).
  at::Tensor p = at::Tensor(p_).to(out.device(), at::kFloat);
  // The CPU checks every probability; so does this, at the cost of a wait.
  TORCH_CHECK(p.ge(0).logical_and_(p.le(1)).all().item<bool>(),
              "Expected p_in >= 0 && p_in <= 1 to be true, but got false.");
  c10::MaybeOwned<at::Tensor> expanded = at::expand_inplace(out, p);
  auto iter = at::TensorIteratorConfig()
                  .add_output(out)
                  .add_const_input(*expanded)
                  .check_all_same_dtype(false)
                  .resize_outputs(false)
                  .build();
  launch("random.bernoulli_tensor", iter, gen);
}

// [base, base + range): 32-bit words while the range fits them, else 64-bit
// (range 0 stands for 2^64).
void random_from_to_kernel(at::TensorIteratorBase& iter, uint64_t range, int64_t base,
                           std::optional<at::Generator> gen) {
  bool wide = range == 0 || range >= (uint64_t{1} << 32);
  launch(wide ? "random.random64" : "random.random32", iter, gen, range,
         static_cast<uint64_t>(base));
}

void random_full_64_bits_range_kernel(at::TensorIteratorBase& iter,
                                      std::optional<at::Generator> gen) {
  c10::ScalarType dtype = iter.dtype(0);
  TORCH_CHECK(
      dtype == at::kLong || dtype == at::kDouble || dtype == at::kFloat || dtype == at::kBFloat16,
      "random_full_64_bits_range handles only int64, double, float and bfloat16");
  random_from_to_kernel(iter, 0, 0, gen);
}

// random_() without bounds: [0, max] for integers, [0, 2^digits] for floats
// (the integers every value of which the dtype holds exactly).
void random_kernel(at::TensorIteratorBase& iter, std::optional<at::Generator> gen) {
  uint64_t range = 0;
  AT_DISPATCH_V2(iter.dtype(0), "random_", AT_WRAP([&] {
                   if constexpr (std::is_same_v<scalar_t, bool>) {
                     range = 2;
                   } else if constexpr (std::numeric_limits<scalar_t>::is_integer) {
                     range = static_cast<uint64_t>(std::numeric_limits<scalar_t>::max()) + 1;
                   } else {
                     range = (uint64_t{1} << std::numeric_limits<scalar_t>::digits) + 1;
                   }
                 }),
                 AT_EXPAND(AT_ALL_TYPES), at::kBool, at::kHalf, at::kBFloat16);
  random_from_to_kernel(iter, range, 0, gen);
}

namespace n = at::native;
using Generator = std::optional<at::Generator>;

}  // namespace
}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(uniform_stub, &torchvulkan::uniform_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(normal_stub, &torchvulkan::normal_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(log_normal_stub, &torchvulkan::log_normal_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(exponential_stub, &torchvulkan::exponential_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(cauchy_stub, &torchvulkan::cauchy_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(geometric_stub, &torchvulkan::geometric_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(bernoulli_scalar_stub, &torchvulkan::bernoulli_scalar_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(bernoulli_tensor_stub, &torchvulkan::bernoulli_tensor_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(random_from_to_stub, &torchvulkan::random_from_to_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(random_full_64_bits_range_stub,
                              &torchvulkan::random_full_64_bits_range_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(random_stub, &torchvulkan::random_kernel)
}  // namespace at::native

namespace torchvulkan {

// The ops whose CPU and CUDA entries are ATen's device-generic natives (they
// call the stubs above); the functional forms (rand, randn, randint, *_like,
// bernoulli, normal.float_float, ...) are composites over these.
TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("uniform_", n::uniform_);
  m.impl("normal_", n::normal_);
  m.impl("normal.Tensor_float",
         static_cast<at::Tensor (*)(const at::Tensor&, double, Generator)>(n::normal));
  m.impl("normal.Tensor_float_out",
         static_cast<at::Tensor& (*)(const at::Tensor&, double, Generator, at::Tensor&)>(
             n::normal_out));
  m.impl("normal.float_Tensor",
         static_cast<at::Tensor (*)(double, const at::Tensor&, Generator)>(n::normal));
  m.impl("normal.float_Tensor_out",
         static_cast<at::Tensor& (*)(double, const at::Tensor&, Generator, at::Tensor&)>(
             n::normal_out));
  m.impl("normal.Tensor_Tensor",
         static_cast<at::Tensor (*)(const at::Tensor&, const at::Tensor&, Generator)>(n::normal));
  m.impl("normal.Tensor_Tensor_out",
         static_cast<at::Tensor& (*)(const at::Tensor&, const at::Tensor&, Generator, at::Tensor&)>(
             n::normal_out));
  m.impl("log_normal_", n::log_normal_);
  m.impl("exponential_", n::exponential_);
  m.impl("cauchy_", n::cauchy_);
  m.impl("geometric_", n::geometric_);
  m.impl("bernoulli_.float",
         static_cast<at::Tensor& (*)(at::Tensor&, double, Generator)>(n::bernoulli_));
  m.impl("bernoulli_.Tensor",
         static_cast<at::Tensor& (*)(at::Tensor&, const at::Tensor&, Generator)>(n::bernoulli_));
  m.impl("bernoulli.out", n::bernoulli_out);
  m.impl("random_", static_cast<at::Tensor& (*)(at::Tensor&, Generator)>(n::random_));
  m.impl("random_.from",
         static_cast<at::Tensor& (*)(at::Tensor&, int64_t, std::optional<int64_t>, Generator)>(
             n::random_));
  m.impl("random_.to", static_cast<at::Tensor& (*)(at::Tensor&, int64_t, Generator)>(n::random_));
}

}  // namespace torchvulkan
